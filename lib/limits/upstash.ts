import { Ratelimit } from '@upstash/ratelimit';
import type { Redis } from '@upstash/redis';
import type { RateLimiter } from '../store/index.js';

export interface UpstashLimiterOptions {
  requests: number;
  windowSeconds: number;
  prefix?: string;
}

/** @upstash/ratelimit's sliding window on Upstash Redis. */
export function createUpstashLimiter(redis: Redis, options: UpstashLimiterOptions): RateLimiter {
  const ratelimit = new Ratelimit({
    redis,
    limiter: Ratelimit.slidingWindow(options.requests, `${options.windowSeconds} s`),
    prefix: options.prefix ?? 'ratelimit',
    analytics: false,
  });
  return {
    async limit(identifier) {
      const { success, limit, remaining, reset } = await ratelimit.limit(identifier);
      return { success, limit, remaining, reset };
    },
  };
}
