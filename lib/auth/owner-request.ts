import { HttpError } from '../http/errors.js';
import type { OwnerGuard } from './types.js';

/**
 * Whether a request on any route is the owner's: `X-Owner-Email` marks it (on /api/chat, where
 * `Authorization` may carry a visitor's ID token, its presence is what tells the two apart), and
 * the owner guard must accept its proof, as on the admin endpoints. A request that claims to be the
 * owner's and fails the proof is refused with 403, never served as a visitor's.
 */
export async function isOwnerRequest(guard: OwnerGuard, request: Request): Promise<boolean> {
  if (!request.headers.get('x-owner-email')?.trim()) return false;
  try {
    await guard.check(request);
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) throw new HttpError('forbidden', error.message);
    throw error;
  }
  return true;
}
