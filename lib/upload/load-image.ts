import type { Store } from '../store/types.js';
import type { RecognizedText } from '../vision/text-recognition/types.js';
import type { ImageMimeType } from '../vision/types.js';
import { assertImageId, imageBlobKey, imageTextKey, imageTypeKey } from './image-keys.js';

/**
 * The stored image of an id, or undefined when it is unknown or has expired (the caller answers
 * 404). Throws HttpError 400 when the id is not of the right form, before touching the store.
 */
export async function loadStoredImage(
  store: Store,
  id: string,
): Promise<{ bytes: Uint8Array; mimeType: ImageMimeType } | undefined> {
  assertImageId(id);
  const [mimeType, bytes] = await Promise.all([store.get(imageTypeKey(id)), store.getBlob(imageBlobKey(id))]);
  if (!mimeType || !bytes) return undefined;
  return { bytes, mimeType: mimeType as ImageMimeType };
}

/** The text recognised in an uploaded image when it was uploaded, or undefined (unknown, expired, damaged). */
export async function loadStoredImageText(store: Store, id: string): Promise<RecognizedText | undefined> {
  assertImageId(id);
  const raw = await store.get(imageTextKey(id));
  if (!raw) return undefined;
  try {
    const text = JSON.parse(raw) as RecognizedText;
    return Array.isArray(text.lines) && typeof text.status === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}
