import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwnerGuard, createTokenVerifier, type OwnerGuard } from '../../lib/auth/index.js';
import { HttpError } from '../../lib/http/errors.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';

const ownerEmail = 'Owner@Example.com';
const adminToken = 'admin-token-0123456789abcdef';
const NOT_THE_OWNER = 'X-Owner-Email and the proof in Authorization do not identify the owner of this server';

function adminRequest(headers: Record<string, string>): Request {
  return new Request('http://127.0.0.1/api/admin/stats', { headers });
}

async function outcome(
  promise: Promise<void>,
): Promise<{ status: number; code: string; message: string } | 'passed'> {
  try {
    await promise;
    return 'passed';
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    const { status, code, message } = error as HttpError;
    return { status, code, message };
  }
}

describe('createOwnerGuard', () => {
  let idp: OidcStandin;
  let guard: OwnerGuard;

  beforeAll(async () => {
    idp = await startOidcStandin();
    const verifier = createTokenVerifier({
      issuer: idp.issuer,
      audience: idp.audience,
      jwksUrl: idp.jwksUrl,
    });
    guard = createOwnerGuard({ ownerEmail, adminToken, verifier });
  });
  afterAll(() => idp.close());

  it('returns 401 when X-Owner-Email is missing', async () => {
    expect(await outcome(guard.check(adminRequest({ authorization: `Bearer ${adminToken}` })))).toMatchObject(
      {
        status: 401,
        code: 'unauthorized',
      },
    );
  });

  it('returns 403 when X-Owner-Email names someone else', async () => {
    const result = await outcome(
      guard.check(
        adminRequest({ 'x-owner-email': 'intruder@example.com', authorization: `Bearer ${adminToken}` }),
      ),
    );
    expect(result).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('returns 403 when there is no proof', async () => {
    const result = await outcome(guard.check(adminRequest({ 'x-owner-email': ownerEmail })));
    expect(result).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('returns 403 when the admin token is wrong', async () => {
    const result = await outcome(
      guard.check(
        adminRequest({ 'x-owner-email': ownerEmail, authorization: 'Bearer wrong-token-0123456789' }),
      ),
    );
    expect(result).toMatchObject({ status: 403, code: 'forbidden', message: NOT_THE_OWNER });
  });

  it('gives the same 403 body whether or not the e-mail matched, for every kind of failed proof', async () => {
    const someoneElse = await idp.mintToken({ email: 'someone@example.com' });
    const expired = await idp.mintToken({ email: 'owner@example.com' }, { expiresIn: -300 });
    const proofs: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: `Basic ${adminToken}` },
      { authorization: 'Bearer a.b.c' },
      { authorization: `Bearer ${someoneElse}` },
      { authorization: `Bearer ${expired}` },
    ];
    for (const proof of proofs) {
      const right = await outcome(guard.check(adminRequest({ 'x-owner-email': ownerEmail, ...proof })));
      const wrong = await outcome(
        guard.check(adminRequest({ 'x-owner-email': 'intruder@example.com', ...proof })),
      );
      expect(right, JSON.stringify(proof)).toMatchObject({ status: 403 });
      expect(wrong, JSON.stringify(proof)).toEqual(right);
    }
    const rightToken = await outcome(
      guard.check(
        adminRequest({ 'x-owner-email': 'intruder@example.com', authorization: `Bearer ${adminToken}` }),
      ),
    );
    expect(rightToken).toEqual({ status: 403, code: 'forbidden', message: NOT_THE_OWNER });
  });

  it('returns 403 when the Authorization header is malformed', async () => {
    const result = await outcome(
      guard.check(adminRequest({ 'x-owner-email': ownerEmail, authorization: `Basic ${adminToken}` })),
    );
    expect(result).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('passes with the admin token, comparing the e-mail case-insensitively', async () => {
    const result = await outcome(
      guard.check(
        adminRequest({ 'x-owner-email': ' owner@EXAMPLE.com ', authorization: `Bearer ${adminToken}` }),
      ),
    );
    expect(result).toBe('passed');
  });

  it("passes with the owner's own sign-in token", async () => {
    const token = await idp.mintToken({ email: 'owner@example.com' });
    const result = await outcome(
      guard.check(adminRequest({ 'x-owner-email': ownerEmail, authorization: `Bearer ${token}` })),
    );
    expect(result).toBe('passed');
  });

  it('returns 403 for the sign-in token of someone else', async () => {
    const token = await idp.mintToken({ email: 'someone@example.com' });
    const result = await outcome(
      guard.check(adminRequest({ 'x-owner-email': ownerEmail, authorization: `Bearer ${token}` })),
    );
    expect(result).toMatchObject({
      status: 403,
      code: 'forbidden',
      message: NOT_THE_OWNER,
    });
  });

  it("returns 403 for the owner's token when the e-mail is marked unverified", async () => {
    const token = await idp.mintToken({ email: 'owner@example.com', email_verified: false });
    const result = await outcome(
      guard.check(adminRequest({ 'x-owner-email': ownerEmail, authorization: `Bearer ${token}` })),
    );
    expect(result).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it("returns 403 for the owner's token when it has expired, saying why", async () => {
    const token = await idp.mintToken({ email: 'owner@example.com' }, { expiresIn: -300 });
    const result = await outcome(
      guard.check(adminRequest({ 'x-owner-email': ownerEmail, authorization: `Bearer ${token}` })),
    );
    expect(result).toMatchObject({ status: 403, code: 'forbidden' });
    expect(result !== 'passed' && result.message).toContain('expired');
  });

  it('returns 403 admin_disabled when OWNER_EMAIL is not set', async () => {
    const disabled = createOwnerGuard({ adminToken });
    const result = await outcome(
      disabled.check(adminRequest({ 'x-owner-email': ownerEmail, authorization: `Bearer ${adminToken}` })),
    );
    expect(result).toMatchObject({ status: 403, code: 'admin_disabled' });
    expect(result !== 'passed' && result.message).toContain('OWNER_EMAIL is not set');
  });

  it('accepts only sign-in tokens when ADMIN_TOKEN is not set', async () => {
    const oidcOnly = createOwnerGuard({
      ownerEmail,
      verifier: createTokenVerifier({ jwksUrl: idp.jwksUrl, audience: idp.audience }),
    });
    const token = await idp.mintToken({ email: 'owner@example.com' });
    expect(
      await outcome(
        oidcOnly.check(adminRequest({ 'x-owner-email': ownerEmail, authorization: `Bearer ${token}` })),
      ),
    ).toBe('passed');
    expect(
      await outcome(
        oidcOnly.check(adminRequest({ 'x-owner-email': ownerEmail, authorization: `Bearer ${adminToken}` })),
      ),
    ).toMatchObject({ status: 403, code: 'forbidden' });
  });
});
