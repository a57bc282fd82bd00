import { createHash } from 'node:crypto';

/**
 * The session of an API `user`: a stable id derived from it (hashed, so any string fits the
 * session id rules and the raw value is never stored as a key).
 */
export function sessionOfUser(user: string): string {
  return `user-${createHash('sha256').update(user, 'utf8').digest('base64url').slice(0, 32)}`;
}
