import type { Redis } from '@upstash/redis';
import { inject } from 'vitest';
import { createUpstashRedis, type Store, upstashStore } from '../../lib/store/index.js';

export interface RedisDatabase {
  /** REST URL and token of a database of this test's own (UPSTASH_REDIS_REST_URL / _TOKEN). */
  url: string;
  token: string;
  /** The real @upstash/redis client, retries off so a failure shows at once. */
  redis: Redis;
  /** The service's store on it. */
  store: Store;
}

/** A freshly emptied Redis database behind the Upstash REST bridge, for one test file or test. */
export async function redisDatabase(): Promise<RedisDatabase> {
  const bridge = inject('upstashBridge');
  const response = await fetch(`${bridge.url}/__test/allocate`, {
    method: 'POST',
    headers: { 'x-bridge-secret': bridge.adminSecret },
  });
  if (!response.ok) throw new Error(`the Upstash bridge refused a database: ${response.status}`);
  const { token } = (await response.json()) as { token: string };
  const redis = createUpstashRedis({ url: bridge.url, token, retries: 0 });
  return { url: bridge.url, token, redis, store: upstashStore({ url: bridge.url, token, retries: 0 }) };
}
