import type { Store } from '../store/types.js';
import type { ImageMimeType } from '../vision/types.js';
import { assertImageId, imageBlobKey, imageTypeKey } from './image-keys.js';

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
