import type { Metadata, Sharp } from 'sharp';
import { decodeSlot } from './decode-gate.js';
import { decodeOptions } from './decode-options.js';
import { MAX_DECODE_BYTES } from './limits.js';
import { loadSharp } from './load-sharp.js';
import type { ImageMimeType, StrippedImage } from './types.js';

/**
 * Removes EXIF (GPS, camera, orientation), XMP, IPTC and text comments from an image that
 * already passed `inspectImage`.
 *
 * Re-encodes only when such metadata is present: an image without it is returned byte for
 * byte, so a lossy JPEG or WebP does not lose quality to a needless re-encode and the same
 * upload always hashes to the same id. When it re-encodes, the EXIF orientation is applied to
 * the pixels first, since dropping the tag would otherwise show the photo on its side (a JPEG
 * too large to turn in memory keeps just that tag); the ICC
 * profile is kept so colours do not shift. HEIC is always re-encoded, as JPEG, because browsers
 * cannot show it.
 *
 * Data the decoders ignore (unknown PNG chunks, bytes after the end marker) is not metadata
 * sharp reports, and is left as it is.
 */
export async function stripMetadata(bytes: Uint8Array, mimeType: ImageMimeType): Promise<StrippedImage> {
  const sharp = await loadSharp();
  const metadata = await sharp(bytes, decodeOptions).metadata();
  if (!carriesMetadata(metadata) && mimeType !== 'image/heic') return { bytes, mimeType, reencoded: false };

  const animated = (metadata.pages ?? 1) > 1;
  let pipeline = sharp(bytes, { ...decodeOptions, animated }).keepIccProfile();
  const orientation = metadata.orientation ?? 1;
  if (!animated && orientation !== 1) {
    // Turning pixels needs the whole image in memory; a large JPEG (a phone photo) keeps only
    // its Orientation tag instead, so it is re-encoded line by line and still shows upright.
    const turnable = metadata.width * metadata.height * TURN_BYTES_PER_PIXEL <= MAX_DECODE_BYTES;
    if (mimeType !== 'image/jpeg' || turnable) pipeline = pipeline.autoOrient();
    else pipeline = pipeline.withExif({ IFD0: { Orientation: String(orientation) } });
  }
  const output = encode(pipeline, mimeType);
  const reencoded = await decodeSlot(() => output.pipeline.toBuffer());
  return { bytes: reencoded, mimeType: output.mimeType, reencoded: true };
}

/** Memory per pixel of turning a JPEG upright while re-encoding it (measured with sharp 0.34). */
const TURN_BYTES_PER_PIXEL = 10;

/** Whether an image holds metadata `stripMetadata` removes (and so re-encodes it). */
export function carriesMetadata(metadata: Metadata): boolean {
  return Boolean(
    metadata.exif ||
      metadata.xmp ||
      metadata.iptc ||
      metadata.tifftagPhotoshop ||
      (metadata.comments && metadata.comments.length > 0) ||
      (metadata.orientation !== undefined && metadata.orientation !== 1),
  );
}

function encode(pipeline: Sharp, mimeType: ImageMimeType): { pipeline: Sharp; mimeType: ImageMimeType } {
  switch (mimeType) {
    case 'image/png':
      return { pipeline: pipeline.png(), mimeType };
    case 'image/gif':
      return { pipeline: pipeline.gif(), mimeType };
    case 'image/webp':
      return { pipeline: pipeline.webp({ quality: 90 }), mimeType };
    case 'image/avif':
      return { pipeline: pipeline.avif({ quality: 70 }), mimeType };
    case 'image/jpeg':
    case 'image/heic':
      // Without optimised Huffman tables the encoder streams instead of holding every coefficient.
      return { pipeline: pipeline.jpeg({ quality: 92, optimiseCoding: false }), mimeType: 'image/jpeg' };
  }
}
