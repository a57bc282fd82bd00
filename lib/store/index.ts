export { createEmbeddedStore, type EmbeddedStoreOptions } from './embedded.js';
export type { RateLimiter, RateLimitResult, SetOptions, Store, StoreBatch, StoreKind } from './types.js';
export { createUpstashRedis, createUpstashStore, type UpstashStoreOptions, upstashStore } from './upstash.js';
