import { codesWithStatus } from '../http/schema.js';
import { ref } from './from-valibot.js';
import type { Header, JsonSchema, Response } from './types.js';

/** A JSON request or response body of `schema`. */
export const jsonBody = (schema: JsonSchema) => ({ 'application/json': { schema } });
const seconds: JsonSchema = { type: 'integer', minimum: 0 };

export const headers: Record<string, Header> = {
  'X-Session-Limit': {
    description: 'Messages this session may send in all.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'X-Session-Remaining': {
    description: 'Messages this session may still send.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Limit': {
    description: 'Requests allowed from this address per window.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets.',
    required: true,
    schema: seconds,
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', required: true, schema: seconds },
  'Idempotent-Replayed': {
    description: 'Present when this is the stored answer of an earlier train with the same Idempotency-Key.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  Allow: {
    description: 'The methods this path answers.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' },
  },
};

/** A reference to one of `headers`. */
export const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** What a chat reply says of the session allowance and the rate limit. */
export const allowanceHeaders = {
  'X-Session-Limit': header('X-Session-Limit'),
  'X-Session-Remaining': header('X-Session-Remaining'),
  'RateLimit-Limit': header('RateLimit-Limit'),
  'RateLimit-Remaining': header('RateLimit-Remaining'),
  'RateLimit-Reset': header('RateLimit-Reset'),
};

/** Error responses shared by the operations, one per status. */
export const responses: Record<string, Response> = {
  BadRequest: {
    description: `Invalid input (${codesWithStatus(400).join(', ')}); the message names the field.`,
    content: jsonBody(ref('ValidationError')),
  },
  Unauthorized: {
    description:
      'Missing or unusable credentials: a sign-in token that does not verify, or no X-Owner-Email.',
    content: jsonBody(ref('ErrorBody')),
  },
  Forbidden: {
    description: 'The credentials do not prove the owner, or admin is disabled on this server.',
    content: jsonBody(ref('ErrorBody')),
  },
  NotFound: { description: 'Nothing here.', content: jsonBody(ref('ErrorBody')) },
  Conflict: {
    description:
      'The server serves a fixed ARPA model (LM_ARPA_PATH), which cannot be trained (`conflict`); or another request ' +
      'is training or deleting the same document, or the first train of this Idempotency-Key still runs ' +
      '(`train_in_progress`, with Retry-After: worth a retry).',
    content: jsonBody(ref('ErrorBody')),
  },
  MethodNotAllowed: {
    description: 'The path does not answer this method; Allow lists the ones it does.',
    headers: { Allow: header('Allow') },
    content: jsonBody(ref('ErrorBody')),
  },
  PayloadTooLarge: {
    description: 'The body or the image is too large (images: 5 MB).',
    content: jsonBody(ref('PayloadTooLargeError')),
  },
  DocumentRefused: {
    description:
      'The document cannot be read within the bounds: nested deeper than MAX_NESTING, slower than DOCUMENT_READ_TIMEOUT_MS, too much memory, or a PDF page tree that reaches a page twice. `limit` names the bound. ' +
      'Or `idempotency_conflict`: the same Idempotency-Key, or the same part of the same document and hash, came with other content; do not retry, send new content under a new key or hash.',
    content: jsonBody(ref('DocumentRefusedError')),
  },
  UnsupportedMediaType: {
    description: 'Wrong Content-Type, or a file that is not an image the service can read.',
    content: jsonBody(ref('ErrorBody')),
  },
  TooManyRequests: {
    description:
      'Either this address sent too many requests (rate_limited, with Retry-After) or the session has used its allowance (session_limit: 20 messages, 50 when signed in).',
    headers: { 'Retry-After': { ...headers['Retry-After']!, required: false } },
    content: jsonBody({ oneOf: [ref('RateLimitedError'), ref('SessionLimitError')] }),
  },
  RateLimited: {
    description: 'This address sent too many requests; wait Retry-After seconds.',
    headers: { 'Retry-After': header('Retry-After') },
    content: jsonBody(ref('RateLimitedError')),
  },
  ServiceUnavailable: {
    description:
      "The store (`store_unavailable`, with Retry-After) or the identity provider (`auth_unavailable`) cannot be reached right now, or a Vercel deployment has no Upstash/KV credentials (`store_unconfigured`), or too many documents wait to be read (`reader_busy`, POST /train, with Retry-After); the body never carries the backend's own error.",
    content: jsonBody(ref('ServiceUnavailableError')),
  },
  InferenceFailed: {
    description: 'The model could not produce an answer.',
    content: jsonBody(ref('ErrorBody')),
  },
  Preflight: {
    description: 'CORS preflight: any origin may call the service.',
    headers: { Allow: header('Allow') },
  },
};
