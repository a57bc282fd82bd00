import type { Store } from '../store/types.js';
import { downscaleToJpeg } from '../vision/downscale.js';
import { inspectImage } from '../vision/inspect.js';
import { stripMetadata } from '../vision/strip-metadata.js';
import type { TextRecognizer } from '../vision/text-recognition/index.js';
import type { ImageMimeType } from '../vision/types.js';
import { imageBlobKey, imageIdOf, imageTextKey, imageTypeKey } from './image-keys.js';
import type { UploadedImage } from './schema.js';

/**
 * Most base64 characters put in an upload response. Vercel caps response bodies at 4.5 MB;
 * 4,000,000 leaves room for the other fields and any proxy overhead. It allows originals of
 * up to 3,000,000 bytes inline; larger ones come back as a downscaled JPEG.
 */
export const RESPONSE_BASE64_BUDGET = 4_000_000;

/** Cache-Control of GET /api/upload?id=: the bytes under an id never change (the id is their hash). */
export const STORED_IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface StoreImageOptions {
  /** How long the image is kept (UPLOAD_TTL_SECONDS, 7 days by default); each upload renews it. */
  ttlSeconds: number;
  /** Origin the service is reached at, e.g. https://chat.example.com (no trailing slash needed). */
  publicBaseUrl: string;
  /** Reads the image's text (503 `recognizer_busy` when its queue is full). */
  recognizer: TextRecognizer;
}

/**
 * Validates an uploaded image (`inspectImage`: 415/413/400), strips its metadata, reads its text,
 * stores it (and the text, unless reading timed out) under its content hash with the TTL, and
 * returns the upload response: the URL that serves it back, its text, and its base64, or a
 * downscaled JPEG's base64 when the original would not fit in the response.
 */
export async function storeUploadedImage(
  store: Store,
  bytes: Uint8Array,
  options: StoreImageOptions,
): Promise<UploadedImage> {
  options.recognizer.assertRoom();
  const inspected = await inspectImage(bytes);
  const clean = await stripMetadata(bytes, inspected.mimeType);
  const id = imageIdOf(clean.bytes);
  const text = await options.recognizer.recognize(clean.bytes);
  await store.setBlob(imageBlobKey(id), clean.bytes, options.ttlSeconds);
  await store.set(imageTypeKey(id), clean.mimeType, { ttlSeconds: options.ttlSeconds });
  if (text.status !== 'timed_out') {
    const kept = { ...text, lines: text.lines.map(({ words: _words, ...line }) => ({ ...line, words: [] })) };
    await store.set(imageTextKey(id), JSON.stringify(kept), { ttlSeconds: options.ttlSeconds });
  }

  const inline = await inlineCopy(clean.bytes, clean.mimeType);
  return {
    id,
    url: `${options.publicBaseUrl.replace(/\/+$/, '')}/api/upload?id=${id}`,
    mimeType: clean.mimeType,
    bytes: clean.bytes.length,
    width: inspected.width,
    height: inspected.height,
    text: text.lines.map((line) => line.text),
    textConfidence: text.confidence,
    textStatus: text.status,
    textLines: text.lines,
    base64: inline.base64,
    base64MimeType: inline.mimeType,
    base64Downscaled: inline.downscaled,
    metadataStripped: clean.reencoded,
    expiresInSeconds: options.ttlSeconds,
  };
}

async function inlineCopy(
  bytes: Uint8Array,
  mimeType: ImageMimeType,
): Promise<{ base64: string; mimeType: ImageMimeType; downscaled: boolean }> {
  if (Math.ceil(bytes.length / 3) * 4 <= RESPONSE_BASE64_BUDGET) {
    return { base64: Buffer.from(bytes).toString('base64'), mimeType, downscaled: false };
  }
  const smaller = await downscaleToJpeg(bytes, Math.floor((RESPONSE_BASE64_BUDGET * 3) / 4));
  return { base64: Buffer.from(smaller.bytes).toString('base64'), mimeType: 'image/jpeg', downscaled: true };
}
