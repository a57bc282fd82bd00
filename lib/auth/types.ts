import type { JWTPayload } from 'jose';

/** Who a verified ID token says the caller is. */
export interface VerifiedIdentity {
  /** The `sub` claim: the account's stable id at the identity provider. */
  subject: string;
  email?: string;
  /** The `email_verified` claim when present. */
  emailVerified?: boolean;
  claims: JWTPayload;
}

/** Verifies OIDC ID tokens. Every failure is an `HttpError('invalid_token')` (401). */
export interface TokenVerifier {
  /** False when neither an issuer nor a JWKS URL is configured: every token is then refused. */
  readonly configured: boolean;
  verify(token: string): Promise<VerifiedIdentity>;
}

/** Options of `createTokenVerifier`; names follow the OIDC_* environment variables. */
export interface TokenVerifierOptions {
  /** OIDC_ISSUER: checked against `iss`, and where discovery starts when `jwksUrl` is unset. */
  issuer?: string;
  /** OIDC_AUDIENCE: the client id tokens must be issued for. Required to accept any token. */
  audience?: string;
  /** OIDC_JWKS_URL: the signing keys, used directly instead of discovery. */
  jwksUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** Leeway for `exp`/`nbf`/`iat`; default 30 seconds. */
  clockToleranceSeconds?: number;
  /** The clock tokens are checked against; default the system clock. */
  now?: () => Date;
  /** Deadline for fetching the discovery document and the keys; default 5000 ms. */
  timeoutMs?: number;
}

/** Guards admin endpoints: only the owner of the server passes. */
export interface OwnerGuard {
  /** Resolves when the request comes from the owner; throws `HttpError` (401/403) otherwise. */
  check(request: Request): Promise<void>;
}

export interface OwnerGuardOptions {
  /** OWNER_EMAIL; when unset every admin request gets 403 `admin_disabled`. */
  ownerEmail?: string;
  /** ADMIN_TOKEN; accepted as `Authorization: Bearer <ADMIN_TOKEN>`. */
  adminToken?: string;
  /** Accepts the owner's own ID token as proof instead of the admin token. */
  verifier?: TokenVerifier;
  /** Counts failed proofs per address and refuses an address that failed too often (429). */
  failedProofs?: {
    assertAllowed(address: string): Promise<void>;
    recordFailure(address: string): Promise<void>;
  };
  /** The address failed proofs are counted against (`Services.clientAddress`). */
  clientAddress?: (request: Request) => string;
}
