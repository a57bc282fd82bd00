import { HttpError } from '../http/errors.js';
import { bearerToken } from './bearer-token.js';
import { equalsConstantTime } from './constant-time.js';
import type { OwnerGuard, OwnerGuardOptions } from './types.js';

/**
 * The owner check of admin endpoints. `X-Owner-Email` must name OWNER_EMAIL (401 when missing,
 * 403 when different) and the request must prove it: `Authorization: Bearer <ADMIN_TOKEN>`, or
 * a verified ID token whose e-mail is the owner's (and not marked unverified); otherwise 403.
 * All comparisons are constant-time. Without OWNER_EMAIL admin is off (403 `admin_disabled`).
 */
export function createOwnerGuard(options: OwnerGuardOptions): OwnerGuard {
  const owner = options.ownerEmail?.trim().toLowerCase();
  const { adminToken, verifier } = options;

  async function check(request: Request): Promise<void> {
    if (!owner) {
      throw new HttpError(
        'admin_disabled',
        'Admin endpoints are disabled because OWNER_EMAIL is not set on this server',
      );
    }
    const claimed = request.headers.get('x-owner-email')?.trim();
    if (!claimed) throw new HttpError('unauthorized', 'Admin endpoints need the X-Owner-Email header');
    if (!equalsConstantTime(claimed.toLowerCase(), owner)) {
      throw forbidden('X-Owner-Email does not name the owner of this server');
    }

    const token = proofToken(request);
    if (adminToken !== undefined && equalsConstantTime(token, adminToken)) return;
    if (!verifier?.configured || !looksLikeJwt(token)) {
      throw forbidden(
        adminToken !== undefined
          ? 'The admin token is wrong'
          : 'The bearer token is not a sign-in token this server can verify, and ADMIN_TOKEN is not set',
      );
    }
    let email: string | undefined;
    let emailVerified: boolean | undefined;
    try {
      ({ email, emailVerified } = await verifier.verify(token));
    } catch (error) {
      throw forbidden(
        `The sign-in token was not accepted: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (emailVerified === false || email === undefined || !equalsConstantTime(email.toLowerCase(), owner)) {
      throw forbidden('The signed-in account is not the owner of this server');
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
