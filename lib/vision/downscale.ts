import { decodeSlot } from './decode-gate.js';
import { decodeOptions } from './decode-options.js';
import { loadSharp } from './load-sharp.js';

/** Longest sides tried, largest first, until the JPEG fits. */
const SIDES = [2048, 1600, 1280, 1024, 768, 512, 256];

/**
 * A smaller JPEG copy of an image (first frame, upright, transparency flattened onto white)
 * that is at most `maxBytes` long, for when the original is too big to send back inline.
 */
export async function downscaleToJpeg(
  bytes: Uint8Array,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; width: number; height: number }> {
  const sharp = await loadSharp();
  let last: { bytes: Uint8Array; width: number; height: number } | undefined;
  for (const side of SIDES) {
    const { data, info } = await decodeSlot(() =>
      sharp(bytes, decodeOptions)
        .autoOrient()
        .resize(side, side, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 80 })
        .toBuffer({ resolveWithObject: true }),
    );
    last = { bytes: data, width: info.width, height: info.height };
    if (data.length <= maxBytes) return last;
  }
  return last!;
}
