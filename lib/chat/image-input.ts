import { HttpError } from '../http/index.js';
import type { Services } from '../services/index.js';
import { imageIdOf, loadStoredImage, loadStoredImageText } from '../upload/index.js';
import {
  analyseImage,
  decodeImageBase64,
  describeImage,
  formatAnalysis,
  type ImageAnalysis,
} from '../vision/index.js';

/** An image sent with a chat message, checked and analysed locally. */
export interface ChatImage {
  /** The image's id: the SHA-256 of its bytes, as POST /api/upload names it. */
  id: string;
  bytes: Uint8Array;
  analysis: ImageAnalysis;
  /** Plain sentences about the image, for the reply. */
  description: string;
  /** One line of figures, for `thought`. */
  summary: string;
}

/** Where a chat message's image comes from: base64 (or a data: URL) in the body, or an uploaded image's id. */
export type ChatImageSource = { base64: string } | { id: string };

/**
 * The image of a chat message, analysed and with its text read: bad base64 is a 400, not an
 * image a 415, over 5 MB a 413, a truncated image a 400; an id of the wrong form a 400, an
 * unknown or expired id a 404 (an uploaded image's text was read at upload and is not read again).
 * A full recognizer queue is a 503 with Retry-After.
 */
export async function readChatImage(services: Services, source: ChatImageSource): Promise<ChatImage>;
export async function readChatImage(
  services: Services,
  source: ChatImageSource | undefined,
): Promise<ChatImage | undefined>;
export async function readChatImage(
  services: Services,
  source: ChatImageSource | undefined,
): Promise<ChatImage | undefined> {
  if (source === undefined) return undefined;
  let bytes: Uint8Array;
  let id: string;
  let knownText: Awaited<ReturnType<typeof loadStoredImageText>>;
  if ('base64' in source) {
    bytes = decodeImageBase64(source.base64);
    id = imageIdOf(bytes);
  } else {
    const [stored, text] = await Promise.all([
      loadStoredImage(services.store, source.id),
      loadStoredImageText(services.store, source.id),
    ]);
    if (!stored) {
      throw new HttpError(
        'not_found',
        'No uploaded image has that imageId; it may have expired. Upload it again.',
      );
    }
    bytes = stored.bytes;
    id = source.id;
    knownText = text;
  }
  const analysis = await analyseImage(bytes, { recognizer: services.textRecognizer, knownText });
  return { id, bytes, analysis, description: describeImage(analysis), summary: formatAnalysis(analysis) };
}

/** The image a Variant A chat body names: `imageBase64` or `imageId` (both at once is a 400). */
export function imageSourceOf(body: { imageBase64?: string; imageId?: string }): ChatImageSource | undefined {
  if (body.imageBase64 !== undefined && body.imageId !== undefined) {
    throw new HttpError('validation_failed', 'imageId: send either imageBase64 or imageId, not both', {
      field: 'imageId',
      fields: ['imageBase64', 'imageId'],
    });
  }
  if (body.imageBase64 !== undefined) return { base64: body.imageBase64 };
  if (body.imageId !== undefined) return { id: body.imageId };
  return undefined;
}
