import { HttpError } from '../http/errors.js';
import { bearerToken } from './bearer-token.js';
import { equalsConstantTime } from './constant-time.js';
import type { OwnerGuard, OwnerGuardOptions } from './types.js';

/** The one answer to a failed proof: the same body whether the e-mail, the proof or both were wrong. */
const NOT_THE_OWNER = 'X-Owner-Email and the proof in Authorization do not identify the owner of this server';

/**
 * The owner check of admin endpoints. `X-Owner-Email` must name OWNER_EMAIL (401 when missing)
 * and the request must prove it: `Authorization: Bearer <ADMIN_TOKEN>`, or a verified ID token
 * whose e-mail is the owner's (and not marked unverified). A wrong e-mail and a wrong proof get
 * the same 403, after the same work, so the answer never confirms the owner's address. With
 * `failedProofs`, an address that failed too often gets 429 with Retry-After before any check.
 * All comparisons are constant-time. Without OWNER_EMAIL admin is off (403 `admin_disabled`).
 */
export function createOwnerGuard(options: OwnerGuardOptions): OwnerGuard {
  const owner = options.ownerEmail?.trim().toLowerCase();
  const { adminToken, verifier, failedProofs, clientAddress } = options;

  async function check(request: Request): Promise<void> {
    if (!owner) {
      throw new HttpError(
        'admin_disabled',
        'Admin endpoints are disabled because OWNER_EMAIL is not set on this server',
      );
    }
    const address = failedProofs && clientAddress ? clientAddress(request) : undefined;
    if (address !== undefined) await failedProofs?.assertAllowed(address);
    try {
      await prove(request, owner);
    } catch (error) {
      if (address !== undefined && error instanceof HttpError && error.status === 403) {
        await failedProofs?.recordFailure(address);
      }
      throw error;
    }
  }

  async function prove(request: Request, owner: string): Promise<void> {
    const claimed = request.headers.get('x-owner-email')?.trim();
    if (!claimed) throw new HttpError('unauthorized', 'Admin endpoints need the X-Owner-Email header');
    const token = proofToken(request);
    const emailMatches = equalsConstantTime(claimed.toLowerCase(), owner);
    if (adminToken !== undefined && equalsConstantTime(token, adminToken)) {
      if (emailMatches) return;
      throw forbidden(NOT_THE_OWNER);
    }
    if (!verifier?.configured || !looksLikeJwt(token)) throw forbidden(NOT_THE_OWNER);
    let identity: { email?: string; emailVerified?: boolean };
    try {
      identity = await verifier.verify(token);
    } catch (error) {
      // Why the token failed (expired, wrong audience) does not depend on the e-mail sent.
      throw forbidden(`The sign-in token was not accepted: ${(error as Error).message}`);
    }
    const { email, emailVerified } = identity;
    if (
      !emailMatches ||
      emailVerified === false ||
      email === undefined ||
      !equalsConstantTime(email.toLowerCase(), owner)
    ) {
      throw forbidden(NOT_THE_OWNER);
    }
  }

  return { check };
}

function proofToken(request: Request): string {
  let token: string | undefined;
  try {
    token = bearerToken(request);
  } catch {
    throw forbidden('The Authorization header must have the form "Bearer <token>"');
  }
  if (token === undefined) {
    throw forbidden(
      "Admin endpoints need proof of ownership: Authorization: Bearer <ADMIN_TOKEN> or the owner's sign-in token",
    );
  }
  return token;
}

function looksLikeJwt(token: string): boolean {
  return token.split('.').length === 3;
}

function forbidden(message: string): HttpError {
  return new HttpError('forbidden', message);
}
