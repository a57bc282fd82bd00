import sharp from 'sharp';

/** Kinds of test image the vision benchmark renders. */
export type ImageKind =
  | 'screen'
  | 'receipt'
  | 'sign'
  | 'rotated'
  | 'jpeg-q40'
  | 'small-text'
  | 'columns'
  | 'large'
  | 'no-text';

/** One rendered image and the words it shows (empty for an image without text). */
export interface BenchImage {
  kind: ImageKind;
  name: string;
  bytes: Buffer;
  text: string;
}

interface TextRun {
  x: number;
  y: number;
  text: string;
  size: number;
  fill?: string;
  weight?: 'normal' | 'bold';
  family?: string;
  anchor?: 'start' | 'middle' | 'end';
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function textElement(run: TextRun): string {
  return `<text x="${run.x}" y="${run.y}" font-family="${run.family ?? 'Liberation Sans'}" font-size="${run.size}" font-weight="${run.weight ?? 'normal'}" fill="${run.fill ?? '#111'}" text-anchor="${run.anchor ?? 'start'}">${escapeXml(run.text)}</text>`;
}

function svg(width: number, height: number, background: string, body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${body}</svg>`,
  );
}

const png = (image: Buffer) => sharp(image).png().toBuffer();

/** A screen: a title bar, a paragraph and buttons with labels. */
async function screen(title: string, lines: string[], buttons: string[], dark = false): Promise<BenchImage> {
  const fg = dark ? '#f2f2f2' : '#1a1a1a';
  const parts = [
    `<rect x="0" y="0" width="1000" height="64" fill="${dark ? '#2b2d42' : '#3d5a80'}"/>`,
    textElement({ x: 24, y: 42, text: title, size: 26, fill: '#ffffff', weight: 'bold' }),
    ...lines.map((line, i) => textElement({ x: 40, y: 130 + i * 36, text: line, size: 22, fill: fg })),
    ...buttons.flatMap((label, i) => [
      `<rect x="${40 + i * 220}" y="${150 + lines.length * 36}" width="200" height="52" rx="8" fill="${dark ? '#ef8354' : '#ee6c4d'}"/>`,
      textElement({
        x: 140 + i * 220,
        y: 184 + lines.length * 36,
        text: label,
        size: 20,
        fill: '#ffffff',
        weight: 'bold',
        anchor: 'middle',
      }),
    ]),
  ];
  const height = 240 + lines.length * 36;
  return {
    kind: 'screen',
    name: `screen ${title}`,
    bytes: await png(svg(1000, height, dark ? '#1e1e24' : '#f7f7f2', parts.join(''))),
    text: [title, ...lines, ...buttons].join('\n'),
  };
}

/** A till receipt in a monospaced font: shop, items with prices, total. */
async function receipt(shop: string, items: [string, string][], total: string): Promise<BenchImage> {
  const lines: string[] = [shop, 'Receipt 20418', ...items.map(([item, price]) => `${item} ${price}`)];
  const runs: TextRun[] = [
    { x: 210, y: 50, text: shop, size: 26, weight: 'bold', family: 'Liberation Mono', anchor: 'middle' },
    { x: 210, y: 86, text: 'Receipt 20418', size: 18, family: 'Liberation Mono', anchor: 'middle' },
  ];
  items.forEach(([item, price], i) => {
    runs.push({ x: 30, y: 140 + i * 32, text: item, size: 20, family: 'Liberation Mono' });
    runs.push({ x: 390, y: 140 + i * 32, text: price, size: 20, family: 'Liberation Mono', anchor: 'end' });
  });
  const totalY = 160 + items.length * 32;
  runs.push({ x: 30, y: totalY, text: 'TOTAL', size: 24, weight: 'bold', family: 'Liberation Mono' });
  runs.push({
    x: 390,
    y: totalY,
    text: total,
    size: 24,
    weight: 'bold',
    family: 'Liberation Mono',
    anchor: 'end',
  });
  lines.push(`TOTAL ${total}`);
  const height = totalY + 60;
  const rule = `<line x1="30" y1="${totalY - 30}" x2="390" y2="${totalY - 30}" stroke="#333" stroke-dasharray="6 4"/>`;
  return {
    kind: 'receipt',
    name: `receipt ${shop}`,
    bytes: await png(svg(420, height, '#fdfcf7', runs.map(textElement).join('') + rule)),
    text: lines.join('\n'),
  };
}

/** A sign: large bold words, coloured background. */
async function sign(words: string[], background: string, fill: string): Promise<BenchImage> {
  const runs = words.map((line, i) => ({
    x: 400,
    y: 110 + i * 80,
    text: line,
    size: 60,
    weight: 'bold' as const,
    fill,
    anchor: 'middle' as const,
  }));
  const height = 80 + words.length * 80;
  const frame = `<rect x="12" y="12" width="776" height="${height - 24}" fill="none" stroke="${fill}" stroke-width="6"/>`;
  return {
    kind: 'sign',
    name: `sign ${words[0]}`,
    bytes: await png(svg(800, height, background, frame + runs.map(textElement).join(''))),
    text: words.join('\n'),
  };
}

/** A paragraph of body text (serif or sans), for the rotated, JPEG and small-text kinds. */
function paragraph(lines: string[], size: number, family = 'Liberation Serif', width = 900): Buffer {
  const lineHeight = Math.round(size * 1.5);
  const runs = lines.map((line, i) => ({ x: 30, y: 30 + size + i * lineHeight, text: line, size, family }));
  return svg(width, 60 + lines.length * lineHeight, '#ffffff', runs.map(textElement).join(''));
}

async function rotated(lines: string[], degrees: number): Promise<BenchImage> {
  const bytes = await sharp(paragraph(lines, 26)).rotate(degrees, { background: '#ffffff' }).png().toBuffer();
  return { kind: 'rotated', name: `rotated ${degrees}°`, bytes, text: lines.join('\n') };
}

async function jpegQ40(lines: string[]): Promise<BenchImage> {
  const bytes = await sharp(paragraph(lines, 24, 'Liberation Sans'))
    .jpeg({ quality: 40 })
    .toBuffer();
  return { kind: 'jpeg-q40', name: `jpeg q40 ${lines[0]!.split(' ')[0]}`, bytes, text: lines.join('\n') };
}

async function smallText(lines: string[], size: number): Promise<BenchImage> {
  const bytes = await png(paragraph(lines, size, 'Liberation Sans', 520));
  return { kind: 'small-text', name: `small text ${size}px`, bytes, text: lines.join('\n') };
}

async function columns(left: string[], right: string[]): Promise<BenchImage> {
  const runs = [
    ...left.map((text, i) => ({ x: 30, y: 60 + i * 34, text, size: 22, family: 'Liberation Serif' })),
    ...right.map((text, i) => ({ x: 520, y: 60 + i * 34, text, size: 22, family: 'Liberation Serif' })),
  ];
  const height = 90 + Math.max(left.length, right.length) * 34;
  return {
    kind: 'columns',
    name: 'two columns',
    bytes: await png(svg(1000, height, '#ffffff', runs.map(textElement).join(''))),
    text: [...left, ...right].join('\n'),
  };
}

/** A 4000×3000 photo-like JPEG (a textured background) with a caption band: the downscaling path. */
export async function largePhoto(lines: string[], seed = 0x1234567): Promise<BenchImage> {
  const width = 4000;
  const height = 3000;
  const texture = await noise(width, height, 40, seed);
  const band = svg(
    2400,
    120 + lines.length * 110,
    '#ffffff',
    lines
      .map((text, i) => textElement({ x: 60, y: 130 + i * 110, text, size: 80, family: 'Liberation Sans' }))
      .join(''),
  );
  const bytes = await sharp(texture, { raw: { width, height, channels: 3 } })
    .blur(2)
    .composite([{ input: await png(band), top: 900, left: 800 }])
    .jpeg({ quality: 85 })
    .toBuffer();
  return { kind: 'large', name: 'large photo 4000×3000', bytes, text: lines.join('\n') };
}

/** Smooth coloured noise: sky, grass and such, which a recognizer may mistake for letters. */
async function noise(width: number, height: number, amplitude: number, seed: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed >>> 0 || 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const base = 120 + 60 * Math.sin(x / 97) * Math.cos(y / 131);
      const offset = (y * width + x) * 3;
      const jitter = ((state & 0xff) / 255 - 0.5) * amplitude;
      pixels[offset] = clamp(base + jitter);
      pixels[offset + 1] = clamp(base * 0.9 + 30 + jitter);
      pixels[offset + 2] = clamp(base * 0.7 + 60 - jitter);
    }
  }
  return pixels;
}

const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));

async function withoutText(): Promise<BenchImage[]> {
  const gradient = svg(
    800,
    600,
    '#ffffff',
    '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#87ceeb"/><stop offset="1" stop-color="#1e3a5f"/></linearGradient></defs><rect width="800" height="600" fill="url(#g)"/>',
  );
  const shapes = svg(
    800,
    600,
    '#fafafa',
    '<circle cx="200" cy="200" r="120" fill="#e63946"/><rect x="420" y="120" width="260" height="180" fill="#457b9d"/><polygon points="150,520 300,360 450,520" fill="#2a9d8f"/><line x1="500" y1="400" x2="760" y2="560" stroke="#264653" stroke-width="12"/>',
  );
  const stripes = svg(
    800,
    600,
    '#ffffff',
    Array.from(
      { length: 30 },
      (_, i) =>
        `<rect x="${i * 27}" y="0" width="9" height="600" fill="#333" transform="rotate(8 400 300)"/>`,
    ).join(''),
  );
  const textured = await sharp(await noise(1200, 900, 90, 0xabcdef), {
    raw: { width: 1200, height: 900, channels: 3 },
  })
    .blur(1.5)
    .jpeg({ quality: 70 })
    .toBuffer();
  const make = async (name: string, bytes: Buffer) => ({ kind: 'no-text' as const, name, bytes, text: '' });
  return Promise.all([
    make('gradient sky', await png(gradient)),
    make('shapes', await png(shapes)),
    make('stripes', await png(stripes)),
    make('textured photo', textured),
  ]);
}

/** The benchmark's images, rendered with the fonts on this machine (Liberation Sans, Serif, Mono). */
export async function renderBenchImages(): Promise<BenchImage[]> {
  return [
    await screen(
      'Account settings',
      ['Change your password every ninety days.', 'Two factor authentication is enabled.'],
      ['Save changes', 'Cancel'],
    ),
    await screen(
      'Weather dashboard',
      ['Tomorrow brings heavy rain across the northern valleys.', 'Expect strong winds after midnight.'],
      ['Refresh', 'Settings', 'Share'],
      true,
    ),
    await screen('Order tracking', ['Your parcel left the warehouse this morning.'], ['Details']),
    await receipt(
      'GREEN GROCER',
      [
        ['Apples', '3.20'],
        ['Bread', '2.45'],
        ['Cheese', '6.80'],
        ['Coffee', '8.99'],
      ],
      '21.44',
    ),
    await receipt(
      'CITY HARDWARE',
      [
        ['Hammer', '14.50'],
        ['Nails', '3.75'],
        ['Paint', '22.00'],
      ],
      '40.25',
    ),
    await sign(['NO PARKING', 'FIRE LANE'], '#c1121f', '#ffffff'),
    await sign(['OPEN DAILY', 'FRESH BAKERY'], '#ffd166', '#073b4c'),
    await sign(['PLATFORM NINE', 'TRAINS TO LONDON'], '#003049', '#fcbf49'),
    await rotated(
      [
        'The museum opens at nine in the morning.',
        'Guided tours leave from the main entrance.',
        'Tickets are sold at the front desk.',
      ],
      3,
    ),
    await rotated(
      ['Please return library books within three weeks.', 'Late returns cost twenty pence per day.'],
      -5,
    ),
    await jpegQ40([
      'Meeting notes from the planning committee.',
      'The bridge repairs will finish in October.',
      'Budget approved for new street lights.',
    ]),
    await jpegQ40(['Harvest festival this Saturday.', 'Music, food and games for children.']),
    await smallText(
      ['Terms apply to every purchase made online.', 'Refunds are processed within five days.'],
      11,
    ),
    await smallText(['Battery level low, connect the charger.', 'Backup completed without errors.'], 12),
    await columns(
      ['Gardening tips for spring', 'Plant tomatoes after frost', 'Water seedlings every morning'],
      ['Local football results', 'Rovers defeated United', 'Captain scored twice'],
    ),
    await largePhoto(['Summit trail closed for repairs', 'Visitor centre open until sunset']),
    ...(await withoutText()),
  ];
}
