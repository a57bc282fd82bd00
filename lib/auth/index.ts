export { bearerToken } from './bearer-token.js';
export { equalsConstantTime } from './constant-time.js';
export { ownerGuardFromConfig, verifierFromConfig } from './from-config.js';
export { createOwnerGuard } from './owner-guard.js';
export { isOwnerRequest } from './owner-request.js';
export type { TokenFailure } from './token-errors.js';
export { createTokenVerifier } from './token-verifier.js';
export type {
  OwnerGuard,
  OwnerGuardOptions,
  TokenVerifier,
  TokenVerifierOptions,
  VerifiedIdentity,
} from './types.js';
