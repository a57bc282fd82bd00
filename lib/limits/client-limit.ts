import { isOwnerRequest, type OwnerGuard } from '../auth/index.js';
import { HttpError } from '../http/index.js';
import { logError } from '../log/index.js';
import { type RateLimiter, StoreUnavailableError } from '../store/index.js';

/** What the limit needs of the services: the limiter, the fail-open switch and the trusted address. */
export interface ClientLimitServices {
  limiter: RateLimiter;
  /** RATE_LIMIT_FAIL_OPEN: when the store cannot be reached, true lets the request through (logged), false answers 503. */
  config: { RATE_LIMIT_FAIL_OPEN: boolean };
  /** The address the limit counts (`Services.clientAddress`: trusted, never a header the client chose). */
  clientAddress: (request: Request) => string;
  /** Tells the owner's requests (X-Owner-Email and its proof) from visitors'; absent: everyone is a visitor. */
  ownerGuard?: OwnerGuard;
}

/** Who sent a request, as the limit found out. */
export interface Caller {
  /** X-Owner-Email with a proof the owner guard accepted. */
  owner: boolean;
}

/**
 * Applies the IP rate limit to a request. Returns the RateLimit-* headers for the response;
 * throws 429 `rate_limited` with Retry-After (seconds) when the address is over its limit.
 */
async function enforceClientLimit(
  services: ClientLimitServices,
  request: Request,
): Promise<Record<string, string>> {
  let result: Awaited<ReturnType<RateLimiter['limit']>>;
  try {
    result = await services.limiter.limit(`ip:${services.clientAddress(request)}`);
  } catch (error) {
    if (services.config.RATE_LIMIT_FAIL_OPEN) {
      logError('rate_limit_unavailable', error);
      return {};
    }
    throw new StoreUnavailableError('rate limit', error);
  }
  const resetSeconds = Math.max(0, Math.ceil((result.reset - Date.now()) / 1000));
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
 * RateLimit-* headers. The owner's requests (X-Owner-Email with its proof; a failed proof is 403)
 * are not counted: a docs folder trains at the speed of the service, and the owner's chat is never
 * throttled by it.
 */
export async function underClientLimit(
  services: ClientLimitServices,
  request: Request,
  run: (caller: Caller) => Promise<Response>,
): Promise<Response> {
  if (services.ownerGuard && (await isOwnerRequest(services.ownerGuard, request)))
    return run({ owner: true });
  const headers = await enforceClientLimit(services, request);
  try {
    const response = await run({ owner: false });
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch (error) {
    if (error instanceof HttpError) Object.assign(error.headers, headers);
    throw error;
  }
}
