import { HttpError } from '../http/errors.js';
import type { Store } from '../store/index.js';

/** Failed admin proofs allowed per address and window before 429. */
export const FAILED_PROOFS_PER_WINDOW = 10;
export const FAILED_PROOF_WINDOW_SECONDS = 60;

export interface FailedProofLimiter {
  /** Throws 429 `rate_limited` with Retry-After when the address has used up its failed proofs. */
  assertAllowed(address: string): Promise<void>;
  /** Counts one failed proof against the address. */
  recordFailure(address: string): Promise<void>;
}

export interface FailedProofOptions {
  failures?: number;
  windowSeconds?: number;
  now?: () => number;
}

/**
 * Counts failed admin proofs per address in fixed windows in the store (either backend), so
 * guessing the admin token or the owner's address is slow: after `failures` in a window the
 * address gets 429 until the window ends, whatever it sends. Fixed windows: at a window's edge
 * up to twice the count can be tried in a short time, still two tries a few seconds.
 */
export function createFailedProofLimiter(store: Store, options: FailedProofOptions = {}): FailedProofLimiter {
  const failures = options.failures ?? FAILED_PROOFS_PER_WINDOW;
  const windowSeconds = options.windowSeconds ?? FAILED_PROOF_WINDOW_SECONDS;
  const now = options.now ?? Date.now;
  const windowOf = () => Math.floor(now() / (windowSeconds * 1000));
  const keyOf = (address: string, window: number) => `auth:failed-proofs:${address}:${window}`;
  return {
    async assertAllowed(address) {
      const window = windowOf();
      const count = Number((await store.get(keyOf(address, window))) ?? 0);
      if (count < failures) return;
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * windowSeconds * 1000 - now()) / 1000));
      throw new HttpError(
        'rate_limited',
        `Too many failed admin proofs from your address; try again in ${retryAfter} s.`,
        { retryAfter },
        { 'Retry-After': String(retryAfter) },
      );
    },
    async recordFailure(address) {
      await store.incr(keyOf(address, windowOf()), windowSeconds * 2);
    },
  };
}
