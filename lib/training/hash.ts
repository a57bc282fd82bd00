import { createHash } from 'node:crypto';

/** The SHA-256 of a text (as UTF-8) or of bytes, in hex: a document's fingerprint in the document table. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
