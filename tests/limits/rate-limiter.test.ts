import { describe, expect, it } from 'vitest';
import { createStoreSlidingWindow, createUpstashLimiter } from '../../lib/limits/index.js';
import { createEmbeddedStore, type RateLimiter } from '../../lib/store/index.js';
import { redisDatabase } from '../support/redis.js';

/** A day-long window: a test never straddles a window boundary, where a sliding window legitimately frees a request. */
const DAY = 86_400;

async function spend(limiter: RateLimiter, identifier: string, count: number) {
  const results = [];
  for (let index = 0; index < count; index++) results.push(await limiter.limit(identifier));
  return results;
}

describe('sliding-window rate limiter', () => {
  it('@upstash/ratelimit on a real Redis allows the limit, then refuses with a reset time', async () => {
    const { redis } = await redisDatabase();
    const limiter = createUpstashLimiter(redis, { requests: 3, windowSeconds: DAY });
    const results = await spend(limiter, '203.0.113.7', 4);
    expect(results.map((result) => result.success)).toEqual([true, true, true, false]);
    expect(results[0]).toMatchObject({ limit: 3, remaining: 2 });
    expect(results[3]!.remaining).toBe(0);
    expect(results[3]!.reset).toBeGreaterThan(Date.now());
    expect((await limiter.limit('198.51.100.1')).success).toBe(true);
  });

  it('the embedded limiter behaves the same', async () => {
    const limiter = createStoreSlidingWindow(createEmbeddedStore(), { requests: 3, windowSeconds: DAY });
    const results = await spend(limiter, '203.0.113.7', 4);
    expect(results.map((result) => result.success)).toEqual([true, true, true, false]);
    expect(results[0]).toMatchObject({ limit: 3, remaining: 2 });
    expect(results[3]!.reset).toBeGreaterThan(Date.now());
    expect((await limiter.limit('198.51.100.1')).success).toBe(true);
  });

  it('the embedded limiter slides: the previous window weighs less as time passes', async () => {
    let time = 60_000 * 1000;
    const limiter = createStoreSlidingWindow(createEmbeddedStore({ now: () => time }), {
      requests: 4,
      windowSeconds: 60,
      now: () => time,
    });
    await spend(limiter, 'ip', 4);
    expect((await limiter.limit('ip')).success).toBe(false);
    time += 60_000 + 30_000; // half of the previous window still overlaps: weight 2 of 4
    const results = await spend(limiter, 'ip', 3);
    expect(results.map((result) => result.success)).toEqual([true, true, false]);
  });

  it('counts concurrent requests exactly', async () => {
    const { redis } = await redisDatabase();
    const limiter = createUpstashLimiter(redis, { requests: 10, windowSeconds: DAY });
    const results = await Promise.all(Array.from({ length: 25 }, () => limiter.limit('burst')));
    expect(results.filter((result) => result.success)).toHaveLength(10);
  });
});
