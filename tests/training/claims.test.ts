import { describe, expect, it } from 'vitest';
import { createEmbeddedStore } from '../../lib/store/index.js';
import { CLAIM_SECONDS, claimDocument } from '../../lib/training/claims.js';
import { redisDatabase } from '../support/redis.js';

describe.each([
  { name: 'embedded', store: async () => createEmbeddedStore() },
  { name: 'Redis', store: async () => (await redisDatabase()).store },
])('claims on a document ($name)', ({ store: makeStore }) => {
  it('are renewed while the work runs, refuse a second claimant with 409 and are gone once released', async () => {
    const store = await makeStore();
    const claim = await claimDocument(store, 'slow.pdf', 0);
    const key = 'train:claim:slow.pdf';
    expect(await store.ttl(key)).toBeLessThanOrEqual(CLAIM_SECONDS);
    // Wait until the TTL has dropped, then until a renewal lifts it again (it never rises by itself).
    let lowest = await store.ttl(key);
    const deadline = Date.now() + 15_000;
    let renewed = false;
    while (!renewed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const ttl = await store.ttl(key);
      if (ttl > lowest) renewed = true;
      lowest = Math.min(lowest, ttl);
    }
    expect(renewed).toBe(true);
    await expect(claimDocument(store, 'slow.pdf', 100)).rejects.toMatchObject({
      code: 'train_in_progress',
      status: 409,
      headers: { 'Retry-After': '2' },
    });
    await claim.release();
    expect(await store.get(key)).toBeNull();
    const next = await claimDocument(store, 'slow.pdf', 0);
    await next.release();
  }, 20_000);
});
