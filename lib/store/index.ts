export { createEmbeddedStore, type EmbeddedStoreOptions, STORE_FILE } from './embedded.js';
export { StoreStartupError } from './errors.js';
export type { RateLimiter, RateLimitResult, SetOptions, Store, StoreBatch, StoreKind } from './types.js';
export { guardStore, StoreUnavailableError } from './unavailable.js';
export { createUpstashRedis, createUpstashStore, type UpstashStoreOptions, upstashStore } from './upstash.js';
