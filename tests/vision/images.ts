import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** Formats sharp writes that the service accepts. */
export const writableFormats = ['png', 'jpeg', 'gif', 'webp', 'avif'] as const;
export type WritableFormat = (typeof writableFormats)[number];

/** A solid-colour image in a format, made on the spot. */
export function solidImage(
  format: WritableFormat,
  width: number,
  height: number,
  background: string | { r: number; g: number; b: number; alpha: number },
  channels: 3 | 4 = 3,
): Promise<Buffer> {
  return sharp({ create: { width, height, channels, background } }).toFormat(format).toBuffer();
}

/** Pseudo-random RGB noise (xorshift, the same every run), which barely compresses: a quick way to a large file. */
export function noiseImage(format: WritableFormat, width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = 0x9e3779b9;
  for (let index = 0; index < pixels.length; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[index] = state & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

/** A three-frame animated GIF (red, green, blue). */
export function animatedGif(width = 20, height = 10): Promise<Buffer> {
  const frames = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
  ];
  const pixels = Buffer.alloc(width * height * 3 * frames.length);
  frames.forEach((rgb, frame) => {
    for (let pixel = 0; pixel < width * height; pixel++)
      pixels.set(rgb, (frame * width * height + pixel) * 3);
  });
  return sharp(pixels, { raw: { width, height: height * frames.length, channels: 3, pageHeight: height } })
    .gif()
    .toBuffer();
}

/** One PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A valid PNG of exactly `size` bytes: a small image with a private ancillary chunk (`prVt`,
 * which decoders skip) padded to fill, inserted before IEND.
 */
export async function pngOfExactSize(size: number): Promise<Buffer> {
  const base = await solidImage('png', 32, 32, '#3366cc');
  const iendAt = base.length - 12;
  const padding = size - base.length - 12;
  if (padding < 0) throw new Error(`cannot make a PNG as small as ${size} bytes`);
  return Buffer.concat([
    base.subarray(0, iendAt),
    pngChunk('prVt', Buffer.alloc(padding, 0x5a)),
    base.subarray(iendAt),
  ]);
}

/** A PNG header whose IHDR claims `width`×`height`, followed by a token IDAT: a decompression bomb's shape. */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** A JPEG whose EXIF carries GPS coordinates and orientation 6 (rotate 90° to view). */
export function jpegWithGps(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c08040' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Geotagger' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** True when an EXIF block holds a GPS IFD pointer (tag 0x8825) in either byte order. */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  return exif.includes(Buffer.from([0x25, 0x88])) || exif.includes(Buffer.from([0x88, 0x25]));
}

export const svgWithScript = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
    '<script>alert(document.cookie)</script><rect width="10" height="10" fill="red"/></svg>',
);

export const textFile = Buffer.from('hello, this is a plain text file\n');

export const pdfFile = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

/** Lines of dark text on white, rendered with a font on the machine (Liberation Sans by default). */
export function textImage(
  lines: string[],
  options: { size?: number; width?: number; family?: string } = {},
): Promise<Buffer> {
  const size = options.size ?? 28;
  const width = options.width ?? 900;
  const step = Math.round(size * 1.6);
  const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const texts = lines
    .map(
      (line, i) =>
        `<text x="30" y="${30 + size + i * step}" font-family="${options.family ?? 'Liberation Sans'}" font-size="${size}" fill="#111">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${60 + lines.length * step}"><rect width="100%" height="100%" fill="#fff"/>${texts}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A till receipt: items with prices at the right margin and a total. */
export function receiptImage(): Promise<Buffer> {
  const rows: [string, string][] = [
    ['Apples', '3.20'],
    ['Bread', '2.45'],
    ['Cheese', '6.80'],
    ['TOTAL', '12.45'],
  ];
  const texts = rows
    .map(
      ([item, price], i) =>
        `<text x="30" y="${110 + i * 40}" font-family="Liberation Mono" font-size="24">${item}</text><text x="420" y="${110 + i * 40}" font-family="Liberation Mono" font-size="24" text-anchor="end">${price}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="460" height="300"><rect width="100%" height="100%" fill="#fdfcf7"/><text x="230" y="50" font-family="Liberation Mono" font-size="28" font-weight="bold" text-anchor="middle">GREEN GROCER</text>${texts}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Shapes and a gradient, no text. */
export function shapesImage(): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="100%" height="100%" fill="#fafafa"/><circle cx="150" cy="150" r="90" fill="#e63946"/><rect x="320" y="90" width="200" height="140" fill="#457b9d"/><polygon points="100,380 220,260 340,380" fill="#2a9d8f"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}
