import sharp, { type Metadata, type Sharp } from 'sharp';
import { decodeOptions } from './decode-options.js';
import type { ImageMimeType, StrippedImage } from './types.js';

/**
 * Removes EXIF (GPS, camera, orientation), XMP, IPTC and text comments from an image that
 * already passed `inspectImage`.
 *
 * Re-encodes only when such metadata is present: an image without it is returned byte for
 * byte, so a lossy JPEG or WebP does not lose quality to a needless re-encode and the same
 * upload always hashes to the same id. When it re-encodes, the EXIF orientation is applied to
 * the pixels first, since dropping the tag would otherwise show the photo on its side; the ICC
 * profile is kept so colours do not shift. HEIC is always re-encoded, as JPEG, because browsers
 * cannot show it.
 *
 * Data the decoders ignore (unknown PNG chunks, bytes after the end marker) is not metadata
 * sharp reports, and is left as it is.
 */
export async function stripMetadata(bytes: Uint8Array, mimeType: ImageMimeType): Promise<StrippedImage> {
  const metadata = await sharp(bytes, decodeOptions).metadata();
  if (!carriesMetadata(metadata) && mimeType !== 'image/heic') return { bytes, mimeType, reencoded: false };

  const animated = (metadata.pages ?? 1) > 1;
  let pipeline = sharp(bytes, { ...decodeOptions, animated });
  if (!animated) pipeline = pipeline.autoOrient();
  const output = encode(pipeline.keepIccProfile(), mimeType);
  return { bytes: await output.pipeline.toBuffer(), mimeType: output.mimeType, reencoded: true };
}

function carriesMetadata(metadata: Metadata): boolean {
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
      return { pipeline: pipeline.jpeg({ quality: 92 }), mimeType: 'image/jpeg' };
  }
}
