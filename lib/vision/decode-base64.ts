import { HttpError } from '../http/errors.js';
import { formatByteLimit, MAX_IMAGE_BYTES } from './limits.js';

const DATA_URL_PREFIX = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[\w.+-]+)*);base64,/i;
const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of an image sent as text: plain base64 (whitespace and line breaks tolerated) or a
 * `data:<type>;base64,` URL, whose declared type is ignored as the bytes decide it later.
 * Throws HttpError 400 for text that is not base64 and 413 when it would decode to more than
 * `maxBytes`, which is checked from the length before anything is decoded.
 * Run `inspectImage` on the result.
 */
export function decodeImageBase64(input: string, maxBytes = MAX_IMAGE_BYTES): Uint8Array {
  let text = input.trim();
  if (text.startsWith('data:')) {
    const prefix = DATA_URL_PREFIX.exec(text);
    if (!prefix) throw invalid('a data: URL must have the form data:image/png;base64,<data>');
    text = text.slice(prefix[0].length);
  }
  const tooLong = text.length > 2 * encodedLength(maxBytes);
  if (tooLong || decodedLength(text.length - whitespaceCount(text), text) > maxBytes) {
    throw new HttpError(
      'payload_too_large',
      `The image is larger than ${formatByteLimit(maxBytes)} once decoded.`,
      {
        limitBytes: maxBytes,
      },
    );
  }
  text = text.replace(/\s+/g, '');
  if (text === '') throw invalid('it is empty');
  if (!BASE64_BODY.test(text) || text.length % 4 === 1)
    throw invalid('it contains characters outside base64');
  return Buffer.from(text, 'base64');
}

/** Base64 characters (padding included) of `bytes` bytes. */
function encodedLength(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** Bytes that `chars` base64 characters (padding included) decode to. */
function decodedLength(chars: number, text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((chars * 3) / 4) - padding;
}

/** Counted without copying, so an oversized string is refused before it is copied or decoded. */
function whitespaceCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 32 || (code >= 9 && code <= 13)) count++;
  }
  return count;
}

function invalid(reason: string): HttpError {
  return new HttpError('bad_request', `The image is not valid base64: ${reason}.`);
}
