export { createEmbeddedStore, type EmbeddedStoreOptions, STORE_FILE } from './embedded.js';
export { StoreStartupError } from './errors.js';
export { namespacedStore, namespacePrefix, RootKeyWriteError, rootKey } from './namespace.js';
export type {
  KeySize,
  RateLimiter,
  RateLimitResult,
  SetOptions,
  Store,
  StoreBatch,
  StoreKind,
} from './types.js';
export { guardStore, StoreUnavailableError } from './unavailable.js';
export { createUpstashRedis, createUpstashStore, type UpstashStoreOptions, upstashStore } from './upstash.js';
