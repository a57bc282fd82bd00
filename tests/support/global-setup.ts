import type { TestProject } from 'vitest/node';
import { startRedisServer } from './redis-server.js';
import { startUpstashBridge } from './upstash-bridge.js';

declare module 'vitest' {
  export interface ProvidedContext {
    upstashBridge: { url: string; adminSecret: string };
  }
}

/**
 * Starts one real redis-server and the Upstash REST bridge for the whole run. Without
 * redis-server this throws with how to install it: the suite fails, it never skips.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startRedisServer();
  const bridge = await startUpstashBridge(redis.url);
  console.log(`[test setup] redis-server ${redis.url} behind the Upstash REST bridge ${bridge.url}`);
  project.provide('upstashBridge', { url: bridge.url, adminSecret: bridge.adminSecret });
  return async () => {
    await bridge.close();
    await redis.stop();
  };
}
