import type { Store, StoreBatch } from './types.js';

/** Marks a key above the namespace: see `rootKey`. A NUL byte, so no key the service makes starts with it. */
const ROOT_MARK = '\u0000root\u0000';

/**
 * A key outside the namespace of a namespaced store, for reading only: a preview reads production's
 * training corpus this way in the same round trip as its own keys. A namespaced store refuses to
 * write such a key; any other store does not know the mark.
 */
export function rootKey(key: string): string {
  return `${ROOT_MARK}${key}`;
}

/** The prefix of every key of a namespace: `preview:main:` for `preview:main`, nothing for none. */
export function namespacePrefix(namespace: string): string {
  return namespace ? `${namespace}:` : '';
}

/** A write to a `rootKey` through a namespaced store: a bug, never a request's fault. */
export class RootKeyWriteError extends Error {
  constructor(operation: string, key: string) {
    super(`${operation} on ${key.slice(ROOT_MARK.length)}: keys outside the store's namespace are read-only`);
    this.name = 'RootKeyWriteError';
  }
}

/**
 * The store as seen from one namespace: every key of every operation (batches, blobs and their
 * parts, prefix counts and deletes) gets `<namespace>:` in front, so two deployments on one
 * database never see each other's keys. Keys made by `rootKey` pass through unprefixed, for reads
 * only. An empty namespace returns the store itself.
 */
export function namespacedStore(store: Store, namespace: string): Store {
  if (!namespace) return store;
  const prefix = namespacePrefix(namespace);
  const read = (key: string) => (key.startsWith(ROOT_MARK) ? key.slice(ROOT_MARK.length) : prefix + key);
  const write = (operation: string, key: string) => {
    if (key.startsWith(ROOT_MARK)) throw new RootKeyWriteError(operation, key);
    return prefix + key;
  };
  const unprefix = (key: string) => key.slice(prefix.length);

  function batch(): StoreBatch {
    const inner = store.batch();
    const builder: StoreBatch = {
      get: (key) => chain(inner.get(read(key))),
      set: (key, value, options) => chain(inner.set(write('set', key), value, options)),
      del: (key) => chain(inner.del(write('del', key))),
      incr: (key, ttlSeconds) => chain(inner.incr(write('incr', key), ttlSeconds)),
      decr: (key) => chain(inner.decr(write('decr', key))),
      expire: (key, seconds) => chain(inner.expire(write('expire', key), seconds)),
      rpush: (key, ...values) => chain(inner.rpush(write('rpush', key), ...values)),
      lrange: (key, start, stop) => chain(inner.lrange(read(key), start, stop)),
      ltrim: (key, start, stop) => chain(inner.ltrim(write('ltrim', key), start, stop)),
      llen: (key) => chain(inner.llen(read(key))),
      hset: (key, fields) => chain(inner.hset(write('hset', key), fields)),
      hgetall: (key) => chain(inner.hgetall(read(key))),
      hget: (key, field) => chain(inner.hget(read(key), field)),
      hincrby: (key, field, by) => chain(inner.hincrby(write('hincrby', key), field, by)),
      hdel: (key, ...fields) => chain(inner.hdel(write('hdel', key), ...fields)),
      sadd: (key, ...members) => chain(inner.sadd(write('sadd', key), ...members)),
      scard: (key) => chain(inner.scard(read(key))),
      exec: () => inner.exec(),
    };
    // The inner builder returns itself; the caller keeps chaining on the namespaced one.
    const chain = (_inner: StoreBatch) => builder;
    return builder;
  }

  return {
    kind: store.kind,
    get: (key) => store.get(read(key)),
    set: (key, value, options) => store.set(write('set', key), value, options),
    del: (...keys) => store.del(...keys.map((key) => write('del', key))),
    incr: (key, ttlSeconds) => store.incr(write('incr', key), ttlSeconds),
    decr: (key) => store.decr(write('decr', key)),
    expire: (key, seconds) => store.expire(write('expire', key), seconds),
    ttl: (key) => store.ttl(read(key)),
    rpush: (key, ...values) => store.rpush(write('rpush', key), ...values),
    lrange: (key, start, stop) => store.lrange(read(key), start, stop),
    ltrim: (key, start, stop) => store.ltrim(write('ltrim', key), start, stop),
    llen: (key) => store.llen(read(key)),
    hset: (key, fields) => store.hset(write('hset', key), fields),
    hgetall: (key) => store.hgetall(read(key)),
    hget: (key, field) => store.hget(read(key), field),
    hincrby: (key, field, by) => store.hincrby(write('hincrby', key), field, by),
    hdel: (key, ...fields) => store.hdel(write('hdel', key), ...fields),
    sadd: (key, ...members) => store.sadd(write('sadd', key), ...members),
    scard: (key) => store.scard(read(key)),
    setBlob: (key, value, ttlSeconds) => store.setBlob(write('setBlob', key), value, ttlSeconds),
    getBlob: (key) => store.getBlob(read(key)),
    delBlob: (key) => store.delBlob(write('delBlob', key)),
    countKeys: (keyPrefix) => store.countKeys(prefix + keyPrefix),
    deleteByPrefix: (keyPrefix) => store.deleteByPrefix(prefix + keyPrefix),
    keySizes: async (keyPrefix) =>
      (await store.keySizes(prefix + keyPrefix)).map((size) => ({ ...size, key: unprefix(size.key) })),
    batch,
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
