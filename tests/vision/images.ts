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
