import { HttpError } from '../http/errors.js';

/**
 * The token of an `Authorization: Bearer <token>` header, or undefined when there is no header.
 * Any other form of the header is refused with 401 `unauthorized`.
 */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization')?.trim();
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) {
    throw new HttpError('unauthorized', 'The Authorization header must have the form "Bearer <token>"');
  }
  return match[1];
}
