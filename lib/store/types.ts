/** Which backend a store runs on. */
export type StoreKind = 'upstash' | 'embedded';

/** A key and about how many bytes it holds (its name and its content, not the backend's overhead). */
export interface KeySize {
  key: string;
  bytes: number;
}

/** Options of `set`. */
export interface SetOptions {
  /** Expire the key after this many seconds. */
  ttlSeconds?: number;
  /** Only set when the key does not exist (SET NX); `set` then returns false when it existed. */
  ifAbsent?: boolean;
}

/**
 * The operations the service needs, queued and sent in one round trip by `exec()`.
 * Results come back in the order the operations were queued, with the types the single
 * operations of `Store` return.
 */
export interface StoreBatch {
  get(key: string): StoreBatch;
  set(key: string, value: string, options?: SetOptions): StoreBatch;
  del(key: string): StoreBatch;
  /** INCR; when `ttlSeconds` is given the key gets that expiry if it has none yet. */
  incr(key: string, ttlSeconds?: number): StoreBatch;
  decr(key: string): StoreBatch;
  expire(key: string, seconds: number): StoreBatch;
  rpush(key: string, ...values: string[]): StoreBatch;
  lrange(key: string, start: number, stop: number): StoreBatch;
  ltrim(key: string, start: number, stop: number): StoreBatch;
  llen(key: string): StoreBatch;
  hset(key: string, fields: Record<string, string | number>): StoreBatch;
  hgetall(key: string): StoreBatch;
  hget(key: string, field: string): StoreBatch;
  hincrby(key: string, field: string, by: number): StoreBatch;
  hdel(key: string, ...fields: string[]): StoreBatch;
  sadd(key: string, ...members: string[]): StoreBatch;
  scard(key: string): StoreBatch;
  exec(): Promise<unknown[]>;
}

/**
 * The store: counters with expiry, lists, small hashes, binary values and a batch.
 * Keys are plain strings; callers namespace them (`session:<id>:turns`).
 */
export interface Store {
  readonly kind: StoreKind;
  get(key: string): Promise<string | null>;
  /** Returns false only when `ifAbsent` was set and the key existed. */
  set(key: string, value: string, options?: SetOptions): Promise<boolean>;
  /** Deletes keys; returns how many existed. */
  del(...keys: string[]): Promise<number>;
  incr(key: string, ttlSeconds?: number): Promise<number>;
  decr(key: string): Promise<number>;
  expire(key: string, seconds: number): Promise<boolean>;
  /** Remaining time to live in seconds; -1 when the key has no expiry, -2 when it does not exist. */
  ttl(key: string): Promise<number>;
  /** Appends and returns the new length of the list. */
  rpush(key: string, ...values: string[]): Promise<number>;
  /** Inclusive range, negative indexes count from the end, as in Redis. */
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  ltrim(key: string, start: number, stop: number): Promise<void>;
  llen(key: string): Promise<number>;
  hset(key: string, fields: Record<string, string | number>): Promise<void>;
  hgetall(key: string): Promise<Record<string, string>>;
  /** One field of a hash; null when absent. */
  hget(key: string, field: string): Promise<string | null>;
  hincrby(key: string, field: string, by: number): Promise<number>;
  /** Deletes fields of a hash; returns how many existed. */
  hdel(key: string, ...fields: string[]): Promise<number>;
  /** Adds members to a set; returns how many were new. */
  sadd(key: string, ...members: string[]): Promise<number>;
  /** Number of members of a set. */
  scard(key: string): Promise<number>;
  /** Binary values of any size (split into parts where the backend needs it). */
  setBlob(key: string, value: Uint8Array, ttlSeconds?: number): Promise<void>;
  getBlob(key: string): Promise<Uint8Array | null>;
  delBlob(key: string): Promise<void>;
  /** Counts keys that start with `prefix` (admin statistics; not on a hot path). */
  countKeys(prefix: string): Promise<number>;
  /** Deletes every key that starts with `prefix`; returns how many. */
  deleteByPrefix(prefix: string): Promise<number>;
  /** Every live key that starts with `prefix`, with its approximate size (admin; not on a hot path). */
  keySizes(prefix: string): Promise<KeySize[]>;
  batch(): StoreBatch;
  /** Round trip to the backend; throws when it cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Outcome of one rate-limit check. */
export interface RateLimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix time in milliseconds when the window frees a request again. */
  reset: number;
}

/** A sliding-window limiter keyed by an identifier (a client address). */
export interface RateLimiter {
  limit(identifier: string): Promise<RateLimitResult>;
}
