import type { RateLimiter, Store } from '../store/index.js';

export interface SlidingWindowOptions {
  requests: number;
  windowSeconds: number;
  prefix?: string;
  now?: () => number;
}

/**
 * The sliding-window algorithm of @upstash/ratelimit on any store: the previous fixed window's
 * count, weighted by how much of it still overlaps the sliding window, plus the current one.
 * The read and the increment go in one atomic batch; a rejected request is taken back out.
 * An approximation: at most `requests` pass in each fixed window, but up to twice that in a span
 * of one window length (the limit at the end of one window, then again at the end of the next).
 */
export function createStoreSlidingWindow(store: Store, options: SlidingWindowOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const windowMs = options.windowSeconds * 1000;
  const prefix = options.prefix ?? 'ratelimit';
  return {
    async limit(identifier) {
      const time = now();
      const current = Math.floor(time / windowMs);
      const currentKey = `${prefix}:${identifier}:${current}`;
      const previousKey = `${prefix}:${identifier}:${current - 1}`;
      const [previousRaw, currentCount] = (await store
        .batch()
        .get(previousKey)
        .incr(currentKey, options.windowSeconds * 2)
        .exec()) as [string | null, number];
      const overlap = 1 - (time % windowMs) / windowMs;
      const weighted = Math.floor(Number(previousRaw ?? 0) * overlap) + currentCount;
      const success = weighted <= options.requests;
      if (!success) await store.decr(currentKey);
      return {
        success,
        limit: options.requests,
        remaining: Math.max(0, options.requests - weighted),
        reset: (current + 1) * windowMs,
      };
    },
  };
}
