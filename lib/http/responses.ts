import type { HttpError } from './errors.js';

/** Headers every response carries: any origin may call the service from a browser. */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Owner-Email, Idempotency-Key',
  'Access-Control-Expose-Headers':
    'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Session-Limit, X-Session-Remaining, Idempotent-Replayed',
  'Access-Control-Max-Age': '86400',
};

/** A JSON response with CORS headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...corsHeaders, ...headers },
  });
}

/** The JSON error response of an `HttpError`. */
export function errorResponse(error: HttpError): Response {
  return json(error.toBody(), error.status, error.headers);
}
