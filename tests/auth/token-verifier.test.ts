import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier, type TokenVerifier } from '../../lib/auth/index.js';
import { HttpError } from '../../lib/http/errors.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';

async function refusal(
  promise: Promise<unknown>,
  code: 'invalid_token' | 'auth_unavailable' = 'invalid_token',
): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  const httpError = error as HttpError;
  expect(httpError.code).toBe(code);
  expect(httpError.status).toBe(code === 'invalid_token' ? 401 : 503);
  return httpError;
}

describe('createTokenVerifier', () => {
  let idp: OidcStandin;
  let verifier: TokenVerifier;

  beforeAll(async () => {
    idp = await startOidcStandin();
    verifier = createTokenVerifier({ issuer: idp.issuer, audience: idp.audience, jwksUrl: idp.jwksUrl });
  });
  afterAll(() => idp.close());

  it('accepts a valid token and returns the subject, the e-mail and the claims', async () => {
    const token = await idp.mintToken({ sub: 'alice', email: 'Alice@Example.com', name: 'Alice' });
    const identity = await verifier.verify(token);
    expect(identity.subject).toBe('alice');
    expect(identity.email).toBe('Alice@Example.com');
    expect(identity.emailVerified).toBe(true);
    expect(identity.claims.name).toBe('Alice');
    expect(identity.claims.aud).toBe(idp.audience);
  });

  it('refuses an expired token and says to sign in again', async () => {
    const error = await refusal(verifier.verify(await idp.mintToken({}, { expiresIn: -120 })));
    expect(error.message).toBe('The sign-in token has expired; sign in again');
    expect(error.toBody()).toMatchObject({ code: 'invalid_token', reason: 'expired' });
    expect(error.headers['WWW-Authenticate']).toContain('invalid_token');
  });

  it('accepts a token that expired within the clock tolerance', async () => {
    const identity = await verifier.verify(await idp.mintToken({}, { expiresIn: -5 }));
    expect(identity.subject).toBe('user-1');
  });

  it('checks expiry against the clock it is given', async () => {
    const token = await idp.mintToken({}, { expiresIn: 600 });
    const later = createTokenVerifier({
      jwksUrl: idp.jwksUrl,
      audience: idp.audience,
      now: () => new Date(Date.now() + 3_600_000),
    });
    expect((await refusal(later.verify(token))).extra.reason).toBe('expired');
  });

  it('refuses a token that is not valid yet', async () => {
    const error = await refusal(verifier.verify(await idp.mintToken({}, { notBefore: 600 })));
    expect(error.extra.reason).toBe('not_yet_valid');
  });

  it('refuses a token issued for another audience', async () => {
    const error = await refusal(verifier.verify(await idp.mintToken({}, { audience: 'another-app' })));
    expect(error.message).toBe('The sign-in token was issued for a different application');
  });

  it('refuses a token from another issuer', async () => {
    const error = await refusal(
      verifier.verify(await idp.mintToken({}, { issuer: 'https://elsewhere.example' })),
    );
    expect(error.message).toBe('The sign-in token was issued by a different identity provider');
  });

  it('refuses a token with a bad signature', async () => {
    const error = await refusal(verifier.verify(await idp.mintToken({}, { signWithOtherKey: true })));
    expect(error.message).toBe('The sign-in token has an invalid signature');
  });

  it('refuses a token signed with a key the issuer does not publish', async () => {
    const token = await idp.mintToken({}, { signWithOtherKey: true, kid: 'unknown-kid' });
    expect((await refusal(verifier.verify(token))).extra.reason).toBe('unknown_key');
  });

  it('refuses malformed tokens', async () => {
    for (const token of ['not-a-jwt', 'a.b.c', 'eyJhbGciOiJub25lIn0.e30.']) {
      expect((await refusal(verifier.verify(token))).extra.reason).toBe('malformed');
    }
  });

  it('accepts any issuer when only a JWKS URL is configured', async () => {
    const jwksOnly = createTokenVerifier({ jwksUrl: idp.jwksUrl, audience: idp.audience });
    const token = await idp.mintToken({}, { issuer: 'https://other-issuer.example' });
    expect((await jwksOnly.verify(token)).subject).toBe('user-1');
  });
});

describe('createTokenVerifier with discovery', () => {
  it('finds the keys through the discovery document and fetches it only once', async () => {
    const idp = await startOidcStandin();
    try {
      const fetched: string[] = [];
      const countingFetch: typeof fetch = (input, init) => {
        fetched.push(String(input));
        return fetch(input, init);
      };
      const verifier = createTokenVerifier({
        issuer: idp.issuer,
        audience: idp.audience,
        fetch: countingFetch,
      });
      expect((await verifier.verify(await idp.mintToken({ sub: 'a' }))).subject).toBe('a');
      expect((await verifier.verify(await idp.mintToken({ sub: 'b' }))).subject).toBe('b');
      expect(fetched).toEqual([`${idp.issuer}/.well-known/openid-configuration`, idp.jwksUrl]);
    } finally {
      await idp.close();
    }
  });

  it('refuses tokens when the discovery document names another issuer', async () => {
    const idp = await startOidcStandin();
    try {
      const verifier = createTokenVerifier({ issuer: `${idp.issuer}/`, audience: idp.audience });
      const error = await refusal(verifier.verify(await idp.mintToken()), 'auth_unavailable');
      expect(error.extra.reason).toBe('keys_unreachable');
      expect(error.message).toContain('names the issuer');
    } finally {
      await idp.close();
    }
  });
});

describe('createTokenVerifier without a usable identity provider', () => {
  it('refuses every token with 401 when sign-in is not configured', async () => {
    const verifier = createTokenVerifier({});
    expect(verifier.configured).toBe(false);
    const error = await refusal(verifier.verify('a.b.c'));
    expect(error.message).toContain('Sign-in is not configured on this server');
    expect(error.extra.reason).toBe('not_configured');
  });

  it('refuses every token when OIDC_AUDIENCE is not set', async () => {
    const idp = await startOidcStandin();
    try {
      const verifier = createTokenVerifier({ issuer: idp.issuer });
      const error = await refusal(verifier.verify(await idp.mintToken()));
      expect(error.message).toContain('OIDC_AUDIENCE is not set');
    } finally {
      await idp.close();
    }
  });

  it('says the keys could not be loaded when the JWKS endpoint is unreachable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const idp = await startOidcStandin();
    try {
      const verifier = createTokenVerifier({
        jwksUrl: `http://127.0.0.1:${port}/jwks`,
        audience: idp.audience,
      });
      const error = await refusal(verifier.verify(await idp.mintToken()), 'auth_unavailable');
      expect(error.extra.reason).toBe('keys_unreachable');
      expect(error.message).toContain("identity provider's keys could not be loaded");
    } finally {
      await idp.close();
    }
  });
});
