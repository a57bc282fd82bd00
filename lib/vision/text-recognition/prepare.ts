import { decodeOptions } from '../decode-options.js';
import { loadSharp } from '../load-sharp.js';

/**
 * Most pixels handed to the recognizer. A larger image is downscaled to this: its text stays
 * legible (a 12 MP photo's caption shrinks by 0.6) and the recognizer's memory, which grows with
 * the largest image it has seen, stays near 100 MB.
 */
export const MAX_RECOGNITION_PIXELS = 4_000_000;

/** Most an image is enlarged for small text. */
export const MAX_UPSCALE = 3;

/** An image made ready for the recognizer, and the scale from the upright original to it. */
export interface PreparedImage {
  png: Uint8Array;
  width: number;
  height: number;
  scale: number;
}

/** The scale an upright image of that size is first read at: 1, or less to fit the pixel budget. */
export function firstScale(width: number, height: number): number {
  const pixels = width * height;
  return pixels > MAX_RECOGNITION_PIXELS ? Math.sqrt(MAX_RECOGNITION_PIXELS / pixels) : 1;
}

/**
 * The first frame, upright, flattened onto white (transparent screenshots read as dark on
 * light), grey, resized by `scale` (by default `firstScale`), as a quickly compressed PNG; or,
 * for an opaque upright PNG or JPEG read at its own size, the bytes as they are. The caller holds
 * a decoding slot (lib/vision/decode-gate).
 */
export async function prepareImage(bytes: Uint8Array, scale?: number): Promise<PreparedImage> {
  const sharp = await loadSharp();
  const meta = await sharp(bytes, { ...decodeOptions, limitInputPixels: false }).metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.pageHeight ?? meta.height;
  const factor = scale ?? firstScale(width, height);
  // A plain upright PNG or JPEG at its own size goes as it is: tesseract decodes those itself.
  const asItIs =
    factor === 1 &&
    (meta.format === 'png' || meta.format === 'jpeg') &&
    !meta.hasAlpha &&
    (meta.space === 'srgb' || meta.space === 'b-w') &&
    meta.depth === 'uchar' &&
    !meta.isProgressive &&
    (meta.orientation ?? 1) === 1 &&
    (meta.pages ?? 1) === 1;
  if (asItIs) return { png: bytes, width, height, scale: 1 };
  const upright = sharp(bytes, decodeOptions).autoOrient();
  const target = {
    width: Math.max(1, Math.round(width * factor)),
    height: Math.max(1, Math.round(height * factor)),
  };
  const { data, info } = await upright
    .resize(target.width, target.height, { fit: 'fill', kernel: factor > 1 ? 'cubic' : 'lanczos3' })
    .flatten({ background: '#ffffff' })
    .greyscale()
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height, scale: info.width / width };
}
