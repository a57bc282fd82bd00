import { describe, expect, it } from 'vitest';
import { adminStatsHandlers } from '../../lib/admin/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { createFailedProofLimiter } from '../../lib/limits/index.js';
import type { Services } from '../../lib/services/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import { embeddedServices, redisServices } from '../support/services.js';

const OWNER = 'owner@example.com';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
const env = { OWNER_EMAIL: OWNER, ADMIN_TOKEN };
/** The address each request comes from, set by the test. */
const clientAddress = (request: Request) => request.headers.get('x-test-address') ?? '192.0.2.1';

function stats(services: Services, address: string, token: string, email = OWNER) {
  return endpoint(adminStatsHandlers(() => services)).fetch(
    new Request('http://127.0.0.1/api/admin/stats', {
      headers: { 'x-test-address': address, 'x-owner-email': email, authorization: `Bearer ${token}` },
    }),
  );
}

describe.each([
  ['the embedded store', async () => embeddedServices(env, { clientAddress })],
  ['Redis', async () => redisServices(env, { clientAddress })],
])('failed admin proofs on %s', (_, makeServices) => {
  it('answers 429 with Retry-After after 10 failed proofs in a minute, per address, even with the right token', async () => {
    const services = await makeServices();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      const email = attempt % 2 === 0 ? OWNER : 'guess@example.com';
      statuses.push(
        (await stats(services, '198.51.100.7', `wrong-token-${attempt}-0123456789`, email)).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(403), 429, 429]);
    const limited = await stats(services, '198.51.100.7', ADMIN_TOKEN);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited', retryAfter });
    // Another address, and the owner from it, are not held back.
    expect((await stats(services, '198.51.100.8', ADMIN_TOKEN)).status).toBe(200);
  });
});

describe('createFailedProofLimiter', () => {
  it('lets an address try again when its window has passed', async () => {
    let now = 1_000_000_000_000;
    const limiter = createFailedProofLimiter(createEmbeddedStore(), {
      failures: 2,
      windowSeconds: 60,
      now: () => now,
    });
    await limiter.recordFailure('a');
    await limiter.recordFailure('a');
    await expect(limiter.assertAllowed('a')).rejects.toMatchObject({ status: 429 });
    await expect(limiter.assertAllowed('b')).resolves.toBeUndefined();
    now += 60_000;
    await expect(limiter.assertAllowed('a')).resolves.toBeUndefined();
  });
});
