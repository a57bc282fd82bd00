import { bearerToken, type TokenVerifier, type VerifiedIdentity } from '../auth/index.js';

/**
 * The signed-in user, when the request carries `Authorization: Bearer <ID token>`. A present but
 * invalid token throws 401; it never falls back to the free tier. No token: undefined.
 */
export async function signedInUser(
  request: Request,
  verifier: TokenVerifier,
): Promise<VerifiedIdentity | undefined> {
  const token = bearerToken(request);
  if (token === undefined) return undefined;
  return verifier.verify(token);
}
