import { errors } from 'jose';
import { HttpError } from '../http/errors.js';
import { logError } from '../log/index.js';

/** Why a token was refused; sent as `reason` beside `code: 'invalid_token'`. */
export type TokenFailure =
  | 'not_configured'
  | 'expired'
  | 'not_yet_valid'
  | 'wrong_audience'
  | 'wrong_issuer'
  | 'bad_signature'
  | 'unknown_key'
  | 'malformed'
  | 'keys_unreachable'
  | 'invalid_claims';

/**
 * A 401 `invalid_token` error with a message the user can act on; 503 `auth_unavailable` when the
 * token could not be checked because the identity provider's keys are unreachable (not the
 * user's fault, and not a reason to drop them to the free tier either).
 */
export function invalidToken(reason: TokenFailure, message: string): HttpError {
  if (reason === 'keys_unreachable') return new HttpError('auth_unavailable', message, { reason });
  return new HttpError(
    'invalid_token',
    message,
    { reason },
    { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  );
}

/** Translates what jose (or fetching the keys) threw into an `invalidToken` error. */
export function toInvalidToken(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof errors.JWTExpired) {
    return invalidToken('expired', 'The sign-in token has expired; sign in again');
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') {
      return invalidToken('wrong_audience', 'The sign-in token was issued for a different application');
    }
    if (error.claim === 'iss') {
      return invalidToken('wrong_issuer', 'The sign-in token was issued by a different identity provider');
    }
    if (error.claim === 'nbf' || error.claim === 'iat') {
      return invalidToken('not_yet_valid', "The sign-in token is not valid yet; check the device's clock");
    }
    return invalidToken(
      'invalid_claims',
      `The sign-in token's "${error.claim}" claim is missing or not accepted`,
    );
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return invalidToken('bad_signature', 'The sign-in token has an invalid signature');
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return invalidToken(
      'unknown_key',
      'The sign-in token was signed with a key the identity provider does not publish',
    );
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported
  ) {
    return invalidToken('malformed', 'The sign-in token is malformed or uses an unsupported algorithm');
  }
  logError('oidc_keys_unreachable', error);
  return invalidToken(
    'keys_unreachable',
    "Could not check the sign-in token: the identity provider's keys could not be loaded; try again later",
  );
}
