import type { Store, StoreBatch } from './types.js';

/**
 * A store operation failed: the backend could not be reached or refused the work. Carries the
 * backend's own error as `cause` for the log; what a caller is told is only that the store is
 * unavailable (lib/http maps it to 503 `store_unavailable` in one place).
 */
export class StoreUnavailableError extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`store operation ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'StoreUnavailableError';
  }
}

const guarded = new WeakSet<Store>();

/**
 * The store with every failure of its operations (a batch's `exec` included) turned into a
 * `StoreUnavailableError`, whatever the backend. Guarding a guarded store returns it as it is.
 */
export function guardStore(store: Store): Store {
  if (guarded.has(store)) return store;
  const wrapped: Store = {
    kind: store.kind,
    get: (key) => attempt('get', () => store.get(key)),
    set: (key, value, options) => attempt('set', () => store.set(key, value, options)),
    del: (...keys) => attempt('del', () => store.del(...keys)),
    incr: (key, ttlSeconds) => attempt('incr', () => store.incr(key, ttlSeconds)),
    decr: (key) => attempt('decr', () => store.decr(key)),
    expire: (key, seconds) => attempt('expire', () => store.expire(key, seconds)),
    ttl: (key) => attempt('ttl', () => store.ttl(key)),
    rpush: (key, ...values) => attempt('rpush', () => store.rpush(key, ...values)),
    lrange: (key, start, stop) => attempt('lrange', () => store.lrange(key, start, stop)),
    ltrim: (key, start, stop) => attempt('ltrim', () => store.ltrim(key, start, stop)),
    llen: (key) => attempt('llen', () => store.llen(key)),
    hset: (key, fields) => attempt('hset', () => store.hset(key, fields)),
    hgetall: (key) => attempt('hgetall', () => store.hgetall(key)),
    hget: (key, field) => attempt('hget', () => store.hget(key, field)),
    hincrby: (key, field, by) => attempt('hincrby', () => store.hincrby(key, field, by)),
    hdel: (key, ...fields) => attempt('hdel', () => store.hdel(key, ...fields)),
    sadd: (key, ...members) => attempt('sadd', () => store.sadd(key, ...members)),
    scard: (key) => attempt('scard', () => store.scard(key)),
    setBlob: (key, value, ttlSeconds) => attempt('setBlob', () => store.setBlob(key, value, ttlSeconds)),
    getBlob: (key) => attempt('getBlob', () => store.getBlob(key)),
    delBlob: (key) => attempt('delBlob', () => store.delBlob(key)),
    countKeys: (prefix) => attempt('countKeys', () => store.countKeys(prefix)),
    deleteByPrefix: (prefix) => attempt('deleteByPrefix', () => store.deleteByPrefix(prefix)),
    keySizes: (prefix) => attempt('keySizes', () => store.keySizes(prefix)),
    batch: () => guardBatch(store.batch()),
    ping: () => attempt('ping', () => store.ping()),
    close: () => store.close(),
  };
  guarded.add(wrapped);
  return wrapped;
}

function guardBatch(batch: StoreBatch): StoreBatch {
  const exec = batch.exec.bind(batch);
  batch.exec = () => attempt('batch', exec);
  return batch;
}

async function attempt<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError(operation, error);
  }
}
