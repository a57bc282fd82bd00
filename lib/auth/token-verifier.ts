import { createRemoteJWKSet, customFetch, jwtVerify, type RemoteJWKSet } from 'jose';
import { createJwksDiscovery } from './discovery.js';
import { invalidToken, toInvalidToken } from './token-errors.js';
import type { TokenVerifier, TokenVerifierOptions, VerifiedIdentity } from './types.js';

/**
 * Verifies OIDC ID tokens against the issuer's published keys: `jwksUrl` when given, else the
 * `jwks_uri` of the issuer's discovery document. Checks the signature, `iss` (when an issuer is
 * configured), `aud` and `exp`/`nbf`. When sign-in is not configured every token is refused with
 * 401: a caller that sent a token expects to be signed in, so it is never quietly served as free.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 5000;
  const configured = options.issuer !== undefined || options.jwksUrl !== undefined;
  const keySetAt = (url: URL) =>
    createRemoteJWKSet(url, {
      timeoutDuration: timeoutMs,
      [customFetch]: (input, init) => fetch(input, init),
    });

  let keySet: RemoteJWKSet | undefined = options.jwksUrl ? keySetAt(new URL(options.jwksUrl)) : undefined;
  const discoverJwks =
    options.issuer !== undefined ? createJwksDiscovery(options.issuer, fetch, timeoutMs) : undefined;

  async function keys(): Promise<RemoteJWKSet> {
    if (keySet) return keySet;
    try {
      keySet ??= keySetAt(await discoverJwks!());
      return keySet;
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw invalidToken(
        'keys_unreachable',
        `Could not check the sign-in token: the identity provider's discovery document could not be loaded (${detail}); try again later`,
      );
    }
  }

  async function verify(token: string): Promise<VerifiedIdentity> {
    if (!configured) {
      throw invalidToken(
        'not_configured',
        'Sign-in is not configured on this server (OIDC_ISSUER or OIDC_JWKS_URL is not set); send the request without an Authorization header',
      );
    }
    if (options.audience === undefined) {
      throw invalidToken(
        'not_configured',
        'Sign-in is not fully configured on this server (OIDC_AUDIENCE is not set), so no token can be accepted',
      );
    }
    try {
      const { payload } = await jwtVerify(token, await keys(), {
        issuer: options.issuer,
        audience: options.audience,
        clockTolerance: options.clockToleranceSeconds ?? 30,
        currentDate: options.now?.(),
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') {
        throw invalidToken('invalid_claims', 'The sign-in token names no subject');
      }
      const { email, email_verified: emailVerified } = payload;
      return {
        subject: payload.sub,
        ...(typeof email === 'string' ? { email } : {}),
        ...(typeof emailVerified === 'boolean' ? { emailVerified } : {}),
        claims: payload,
      };
    } catch (error) {
      throw toInvalidToken(error);
    }
  }

  return { configured, verify };
}
