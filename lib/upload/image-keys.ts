import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { HttpError } from '../http/errors.js';
import { imageIdSchema } from './schema.js';

/** The id of stored image bytes: their SHA-256 in hex. */
export function imageIdOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Throws HttpError 400 unless `id` has the form of an image id (64 lowercase hex digits). */
export function assertImageId(id: string): void {
  if (!v.is(imageIdSchema, id)) {
    throw new HttpError(
      'bad_request',
      'The image id must be the 64 hex digits returned by POST /api/upload.',
    );
  }
}

/** Store key of an image's bytes. */
export const imageBlobKey = (id: string): string => `image:${id}`;

/** Store key of an image's MIME type. */
export const imageTypeKey = (id: string): string => `image:${id}:type`;

/** Store key of the text recognised in an image (JSON of its RecognizedText). */
export const imageTextKey = (id: string): string => `image:${id}:text`;
