import { bearerToken, equalsConstantTime } from '../auth/index.js';
import { HttpError } from '../http/index.js';
import type { Services } from '../services/index.js';

/** Who is calling /api/v1, and the message allowance that gives each of their sessions. */
export interface ApiAccess {
  via: 'anonymous' | 'api-key' | 'sign-in';
  limit: number;
  /** The verified user of a sign-in token. */
  subject?: string;
}

/**
 * The caller's access to /api/v1. With `API_KEY` set, `Authorization: Bearer <API_KEY>` is
 * required, or else a valid sign-in (OIDC ID) token, which also raises the allowance. Without it
 * the API is open like /api/chat: a bearer shaped like a JWT is checked as a sign-in token (401 when
 * it does not verify), any other bearer, such as the placeholder key an OpenAI client insists
 * on sending, is ignored.
 */
export async function apiAccess(request: Request, services: Services): Promise<ApiAccess> {
  const { config, verifier } = services;
  const token = bearerToken(request);
  const free = { limit: config.SESSION_LIMIT_FREE };
  const signedIn = (subject: string): ApiAccess => ({
    via: 'sign-in',
    limit: config.SESSION_LIMIT_SIGNED_IN,
    subject,
  });
  if (config.API_KEY !== undefined) {
    if (token === undefined) {
      throw new HttpError(
        'invalid_api_key',
        'This API needs a key: send the header Authorization: Bearer <API_KEY>.',
      );
    }
    if (equalsConstantTime(token, config.API_KEY)) return { via: 'api-key', ...free };
    if (looksLikeJwt(token) && verifier.configured) {
      return signedIn((await verifier.verify(token)).subject);
    }
    throw new HttpError('invalid_api_key', 'Incorrect API key provided.');
  }
  if (token === undefined || !looksLikeJwt(token)) return { via: 'anonymous', ...free };
  return signedIn((await verifier.verify(token)).subject);
}

/** Three base64url segments, as every JWS compact token is. */
function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}
