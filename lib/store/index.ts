import { type Config, upstashCredentials } from '../config';
import { createEmbeddedStore } from './embedded';
import type { Store } from './types';
import { upstashStore } from './upstash';

export { createEmbeddedStore, type EmbeddedStoreOptions } from './embedded';
export type { RateLimiter, RateLimitResult, SetOptions, Store, StoreBatch, StoreKind } from './types';
export { createUpstashRedis, createUpstashStore, type UpstashStoreOptions, upstashStore } from './upstash';

/** The store the configuration asks for: Upstash Redis when its credentials are set, else embedded. */
export function storeFromConfig(config: Config): Store {
  const credentials = upstashCredentials(config);
  if (credentials) return upstashStore(credentials);
  return createEmbeddedStore({ dataDir: config.DATA_DIR });
}
