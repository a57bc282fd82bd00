import type { Config } from '../config/schema.js';
import { createOwnerGuard } from './owner-guard.js';
import { createTokenVerifier } from './token-verifier.js';
import type { OwnerGuard, OwnerGuardOptions, TokenVerifier } from './types.js';

/** The ID-token verifier described by OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL. */
export function verifierFromConfig(
  config: Pick<Config, 'OIDC_ISSUER' | 'OIDC_AUDIENCE' | 'OIDC_JWKS_URL'>,
  fetch?: typeof globalThis.fetch,
): TokenVerifier {
  return createTokenVerifier({
    issuer: config.OIDC_ISSUER,
    audience: config.OIDC_AUDIENCE,
    jwksUrl: config.OIDC_JWKS_URL,
    fetch,
  });
}

/** The owner check described by OWNER_EMAIL and ADMIN_TOKEN, accepting the owner's ID token too. */
export function ownerGuardFromConfig(
  config: Pick<Config, 'OWNER_EMAIL' | 'ADMIN_TOKEN'>,
  verifier?: TokenVerifier,
  limits: Pick<OwnerGuardOptions, 'failedProofs' | 'clientAddress'> = {},
): OwnerGuard {
  return createOwnerGuard({
    ownerEmail: config.OWNER_EMAIL,
    adminToken: config.ADMIN_TOKEN,
    verifier,
    ...limits,
  });
}
