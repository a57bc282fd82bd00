import type { ErrorBody } from './schema.js';

/** Machine codes of every error the service returns, each mapped to its HTTP status in one place. */
export const errorStatus = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  unauthorized: 401,
  invalid_token: 401,
  invalid_api_key: 401,
  forbidden: 403,
  admin_disabled: 403,
  not_found: 404,
  document_not_found: 404,
  model_not_found: 404,
  reply_not_found: 404,
  feedback_off: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  train_in_progress: 409,
  payload_too_large: 413,
  idempotency_conflict: 422,
  unsupported_media_type: 415,
  document_too_complex: 422,
  rate_limited: 429,
  headers_too_large: 431,
  session_limit: 429,
  inference_failed: 500,
  internal_error: 500,
  not_implemented: 501,
  store_unavailable: 503,
  recognizer_busy: 503,
  reader_busy: 503,
  store_unconfigured: 503,
  auth_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/**
 * The one error type of the service: a code (which fixes the status), a message a person can act
 * on, optional extra body fields (limit, remaining, retryAfter ...) and optional response headers.
 */
export class HttpError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = errorStatus[code];
  }

  /** The JSON body: `{ error, code, ...extra }` (lib/http/schema.ts states it for the OpenAPI document). */
  toBody(): ErrorBody {
    return { error: this.message, code: this.code, ...this.extra };
  }
}

/** Seconds a client is asked to wait when the store is down. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** What a caller is told when the store is down: what to do, nothing about the backend. */
export function storeUnavailable(): HttpError {
  return new HttpError(
    'store_unavailable',
    `The service cannot reach its data store right now; please try again in ${STORE_RETRY_AFTER_SECONDS} seconds. If this keeps happening, tell the operator of this server.`,
    { retryAfter: STORE_RETRY_AFTER_SECONDS },
    { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
  );
}
