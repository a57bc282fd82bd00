export { bearerToken } from './bearer-token';
export { ownerGuardFromConfig, verifierFromConfig } from './from-config';
export { createOwnerGuard } from './owner-guard';
export type { TokenFailure } from './token-errors';
export { createTokenVerifier } from './token-verifier';
export type {
  OwnerGuard,
  OwnerGuardOptions,
  TokenVerifier,
  TokenVerifierOptions,
  VerifiedIdentity,
} from './types';
