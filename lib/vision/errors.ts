import { HttpError } from '../http/errors.js';
import { logInfo } from '../log/index.js';
import { MAX_IMAGE_PIXELS } from './limits.js';

const ACCEPTED = 'PNG, JPEG, GIF, WebP or AVIF';

/** 415: the bytes are not an image this service decodes. */
export function notAnImage(): HttpError {
  return new HttpError(
    'unsupported_media_type',
    `The file is not a supported image: send ${ACCEPTED}. The type is read from the file's bytes, not its name or declared type.`,
  );
}

/** 415: a HEIC image, which the bundled image library cannot decode. */
export function heicUnsupported(): HttpError {
  return new HttpError(
    'unsupported_media_type',
    `HEIC images cannot be decoded by this server; convert the photo to JPEG (or send ${ACCEPTED}).`,
  );
}

/** 400: the type is recognised but the image does not decode. */
export function corruptImage(reason?: string): HttpError {
  // The decoder's words (sharp's) are for the log, not the caller.
  if (reason) logInfo('image_undecodable', { detail: reason });
  return new HttpError('bad_request', 'The image is truncated or corrupt and could not be decoded.');
}

/** 413: too many pixels to decode safely (`maxPixels` depends on the format, see `maxPixelsFor`). */
export function tooManyPixels(
  width: number,
  height: number,
  pages: number,
  maxPixels: number,
  format: string,
): HttpError {
  const frames = pages > 1 ? ` × ${pages} frames` : '';
  const kind = maxPixels < MAX_IMAGE_PIXELS ? ` for a ${format.toUpperCase()} like this one` : '';
  return new HttpError(
    'payload_too_large',
    `The image is ${width}×${height} pixels${frames}; at most ${+(maxPixels / 1_000_000).toFixed(1)} megapixels are decoded${kind}. Send a smaller image (or a baseline JPEG).`,
    { maxPixels },
  );
}
