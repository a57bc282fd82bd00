import type { HttpError } from './errors.js';

/** Headers every response carries: any origin may call the service from a browser. */
export const corsHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Content-Type, Authorization, X-Owner-Email, Idempotency-Key',
  'Access-Control-Expose-Headers':
    'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Session-Limit, X-Session-Remaining, Idempotent-Replayed',
  'Access-Control-Max-Age': '86400',
};

/** Headers every response carries: browsers must not guess a type other than the declared one. */
export const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
};

/** A JSON response with CORS and security headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      ...corsHeaders,
      ...securityHeaders,
      ...headers,
    },
  });
}

/** The JSON error response of an `HttpError`. */
export function errorResponse(error: HttpError): Response {
  return json(error.toBody(), error.status, error.headers);
}

/**
 * Content-Security-Policy of the chat page (public/), sent as a header (which, unlike the page's
 * own <meta> policy, can also forbid framing): nothing by default; scripts, styles, fonts and
 * fetches from this origin only (no inline script or style, no eval); images also from data: and
 * blob: URLs (an attachment's preview). vercel.json sends the same header on a deployment.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of an HTML page on top of `securityHeaders`. */
export const pageSecurityHeaders: Record<string, string> = {
  'Content-Security-Policy': PAGE_CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'no-referrer',
};

/** Where the chat widget's script is served (public/widget.js). */
export const WIDGET_SCRIPT_PATH = '/widget.js';

/**
 * Headers of the widget's script on top of `securityHeaders`: any page may load it, also with
 * `crossorigin` (for Subresource Integrity) or under Cross-Origin-Embedder-Policy. vercel.json
 * sends the same on a deployment.
 */
export const widgetScriptHeaders: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};
