import { type Config, upstashCredentials } from '../config/index.js';
import { createEmbeddedStore } from './embedded.js';
import type { Store } from './types.js';
import { upstashStore } from './upstash.js';

export { createEmbeddedStore, type EmbeddedStoreOptions } from './embedded.js';
export type { RateLimiter, RateLimitResult, SetOptions, Store, StoreBatch, StoreKind } from './types.js';
export { createUpstashRedis, createUpstashStore, type UpstashStoreOptions, upstashStore } from './upstash.js';

/** The store the configuration asks for: Upstash Redis when its credentials are set, else embedded. */
export function storeFromConfig(config: Config): Store {
  const credentials = upstashCredentials(config);
  if (credentials) return upstashStore(credentials);
  return createEmbeddedStore({ dataDir: config.DATA_DIR });
}
