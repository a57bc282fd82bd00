import { HttpError } from '../http/index.js';
import { logError } from '../log/index.js';
import { type RateLimiter, StoreUnavailableError } from '../store/index.js';

export interface ClientLimitOptions {
  /** When the store cannot be reached: true lets the request through (logged), false answers 503. */
  failOpen: boolean;
  /** The address the limit counts (`Services.clientAddress`: trusted, never a header the client chose). */
  clientAddress: (request: Request) => string;
  now?: () => number;
}

/**
 * Applies the IP rate limit to a request. Returns the RateLimit-* headers for the response;
 * throws 429 `rate_limited` with Retry-After (seconds) when the address is over its limit.
 */
export async function enforceClientLimit(
  limiter: RateLimiter,
  request: Request,
  options: ClientLimitOptions,
): Promise<Record<string, string>> {
  const now = options.now ?? Date.now;
  let result: Awaited<ReturnType<RateLimiter['limit']>>;
  try {
    result = await limiter.limit(`ip:${options.clientAddress(request)}`);
  } catch (error) {
    if (options.failOpen) {
      logError('rate_limit_unavailable', error);
      return {};
    }
    throw new StoreUnavailableError('rate limit', error);
  }
  const resetSeconds = Math.max(0, Math.ceil((result.reset - now()) / 1000));
  const headers = {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(Math.max(0, result.remaining)),
    'RateLimit-Reset': String(resetSeconds),
  };
  if (!result.success) {
    const retryAfter = Math.max(1, resetSeconds);
    throw new HttpError(
      'rate_limited',
      `Too many requests from your address; try again in ${retryAfter} s.`,
      { retryAfter },
      { ...headers, 'Retry-After': String(retryAfter) },
    );
  }
  return headers;
}

/**
 * Runs a handler under the IP rate limit: its response, and any HttpError it throws, carry the
 * RateLimit-* headers.
 */
export async function underClientLimit(
  limiter: RateLimiter,
  request: Request,
  options: ClientLimitOptions,
  run: () => Promise<Response>,
): Promise<Response> {
  const headers = await enforceClientLimit(limiter, request, options);
  try {
    const response = await run();
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (error instanceof HttpError) Object.assign(error.headers, headers);
    throw error;
  }
}
