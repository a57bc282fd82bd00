import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerGuardFromConfig, verifierFromConfig } from '../../lib/auth/index.js';
import { parseConfig } from '../../lib/config/index.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';

describe('auth from configuration', () => {
  let idp: OidcStandin;
  beforeAll(async () => {
    idp = await startOidcStandin();
  });
  afterAll(() => idp.close());

  it('builds an unconfigured verifier when no OIDC variable is set', () => {
    expect(verifierFromConfig(parseConfig({})).configured).toBe(false);
  });

  it('builds a verifier and an owner guard from OIDC_*, OWNER_EMAIL and ADMIN_TOKEN', async () => {
    const config = parseConfig({
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: idp.audience,
      OWNER_EMAIL: 'owner@example.com',
      ADMIN_TOKEN: 'admin-token-0123456789abcdef',
    });
    const verifier = verifierFromConfig(config);
    const token = await idp.mintToken({ email: 'owner@example.com' });
    expect((await verifier.verify(token)).email).toBe('owner@example.com');
    const guard = ownerGuardFromConfig(config, verifier);
    const request = new Request('http://127.0.0.1/api/admin/stats', {
      headers: { 'x-owner-email': 'owner@example.com', authorization: `Bearer ${token}` },
    });
    await expect(guard.check(request)).resolves.toBeUndefined();
  });
});
