import type { Metadata } from 'sharp';
import { decodeSlot } from './decode-gate.js';
import { decodeOptions } from './decode-options.js';
import { corruptImage, heicUnsupported, notAnImage, tooManyPixels } from './errors.js';
import { maxPixelsFor } from './limits.js';
import { loadSharp } from './load-sharp.js';
import { sniffImageType } from './sniff.js';
import { carriesMetadata } from './strip-metadata.js';
import type { ImageMimeType, InspectedImage } from './types.js';

/**
 * Checks that the bytes are an accepted image that decodes completely, and returns its type,
 * displayed size, frame count and transparency. Throws HttpError 415 for anything that is not
 * PNG/JPEG/GIF/WebP/AVIF by its magic bytes (SVG, text, PDF ...) or is HEIC that cannot be
 * decoded here, 413 past the pixel budget of its format (decided from the header, before any
 * decoding), 400 when the image is truncated or corrupt.
 */
export async function inspectImage(bytes: Uint8Array): Promise<InspectedImage> {
  const sniffed = sniffImageType(bytes);
  if (!sniffed) throw notAnImage();
  const sharp = await loadSharp();

  let metadata: Metadata;
  try {
    // Header only: the pixel budget is checked below, with a message that gives the size.
    metadata = await sharp(bytes, { ...decodeOptions, limitInputPixels: false }).metadata();
  } catch (error) {
    throw sniffed === 'image/heic' ? heicUnsupported() : corruptImage(messageOf(error));
  }
  const mimeType = mimeTypeOf(metadata, sniffed);
  if (!mimeType) throw corruptImage(`the bytes start like ${sniffed} but decode as ${metadata.format}`);

  const pages = metadata.pages ?? 1;
  const frameHeight = metadata.pageHeight ?? metadata.height;
  const maxPixels = maxPixelsFor({
    format: metadata.format,
    progressive: metadata.isProgressive === true,
    reencode: carriesMetadata(metadata) || mimeType === 'image/heic',
  });
  if (metadata.width * frameHeight * pages > maxPixels) {
    throw tooManyPixels(metadata.width, frameHeight, pages, maxPixels, metadata.format);
  }

  let opaque: boolean;
  try {
    opaque = await decodeSlot(() => decodesOpaque(bytes, pages > 1));
  } catch (error) {
    throw mimeType === 'image/heic' ? heicUnsupported() : corruptImage(messageOf(error));
  }

  return {
    mimeType,
    width: metadata.autoOrient?.width ?? metadata.width,
    height: metadata.autoOrient?.height ?? frameHeight,
    pages,
    hasAlpha: metadata.hasAlpha,
    transparent: !opaque,
  };
}

/** Side of the copy the decoding check measures transparency on. */
const CHECK_SIDE = 1024;

/**
 * Decodes every pixel (so a truncated or corrupt image throws) into a small copy, line by line
 * where the format allows (sharp's `stats()` would hold the whole image in memory), and tells
 * whether all of it is opaque. Shrinking averages alpha, so a transparent pixel still shows.
 */
async function decodesOpaque(bytes: Uint8Array, animated: boolean): Promise<boolean> {
  const sharp = await loadSharp();
  const alpha = await sharp(bytes, { ...decodeOptions, animated })
    .resize({ width: CHECK_SIDE, height: CHECK_SIDE, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer();
  return alpha.every((value) => value === 255);
}

/** The MIME type sharp's own detection agrees with, or undefined when it disagrees with the sniff. */
function mimeTypeOf(metadata: Metadata, sniffed: ImageMimeType): ImageMimeType | undefined {
  if (metadata.format === 'heif') {
    if (metadata.compression === 'av1') return 'image/avif';
    if (metadata.compression === 'hevc') return 'image/heic';
    return sniffed === 'image/avif' || sniffed === 'image/heic' ? sniffed : undefined;
  }
  return `image/${metadata.format}` === sniffed ? sniffed : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
