import { Redis, type RedisConfigNodejs } from '@upstash/redis';
import type { KeySize, SetOptions, Store, StoreBatch } from './types.js';

export interface UpstashStoreOptions {
  url: string;
  token: string;
  /** Retries on network errors; tests turn them off so a failure shows at once. */
  retries?: number;
  /**
   * Base64 response encoding (the default) keeps any UTF-8 intact; off is only for values known to
   * be ASCII, such as blob parts, whose decoding with atob is slow for megabytes on Node 20.
   */
  responseEncoding?: 'base64' | false;
}

/** Keys measured per script call by `keySizes`. */
const SIZE_KEYS_PER_SCRIPT = 100;
/** The bytes of each key's name and content, whatever its type; -1 for a key gone since the scan. */
const KEY_SIZES_SCRIPT = `
local sizes = {}
for i, key in ipairs(KEYS) do
  local kind = redis.call('TYPE', key)['ok']
  local bytes = #key
  if kind == 'none' then bytes = -1
  elseif kind == 'string' then bytes = bytes + redis.call('STRLEN', key)
  elseif kind == 'list' then for _, item in ipairs(redis.call('LRANGE', key, 0, -1)) do bytes = bytes + #item end
  elseif kind == 'hash' then for _, item in ipairs(redis.call('HGETALL', key)) do bytes = bytes + #item end
  elseif kind == 'set' then for _, item in ipairs(redis.call('SMEMBERS', key)) do bytes = bytes + #item end
  elseif kind == 'zset' then for _, item in ipairs(redis.call('ZRANGE', key, 0, -1)) do bytes = bytes + #item + 8 end
  end
  sizes[i] = bytes
end
return sizes`;

/** Blob parts stay well under Upstash's request size cap once base64-encoded. */
const BLOB_PART_BYTES = 512 * 1024;

/** A client of the Redis REST API (Upstash or Vercel KV), as the store of a deployment. */
export function createUpstashRedis(options: UpstashStoreOptions): Redis {
  const config: RedisConfigNodejs = {
    url: options.url,
    token: options.token,
    automaticDeserialization: false,
    enableTelemetry: false,
    retry: options.retries === 0 ? false : { retries: options.retries ?? 3 },
    responseEncoding: options.responseEncoding ?? 'base64',
  };
  return new Redis(config);
}

/** The store on Upstash Redis from REST credentials. */
export function upstashStore(options: UpstashStoreOptions): Store {
  return createUpstashStore(
    createUpstashRedis(options),
    createUpstashRedis({ ...options, responseEncoding: false }),
  );
}

/**
 * The store on Upstash Redis. Batches are MULTI/EXEC transactions: atomic, one round trip.
 * `blobRedis` (same database, no response encoding) carries the base64 parts of binary values.
 */
export function createUpstashStore(redis: Redis, blobRedis: Redis = redis): Store {
  function setArgs(options: SetOptions = {}) {
    if (options.ttlSeconds && options.ifAbsent) return { ex: options.ttlSeconds, nx: true as const };
    if (options.ttlSeconds) return { ex: options.ttlSeconds };
    if (options.ifAbsent) return { nx: true as const };
    return undefined;
  }

  function batch(): StoreBatch {
    const tx = redis.multi();
    // One decoder per queued command; `skip` marks helper commands whose results are not returned.
    const decoders: ((value: unknown) => unknown)[] = [];
    const builder: StoreBatch = {
      get: (key) => add(() => tx.get(key), asStringOrNull),
      set: (key, value, options) => {
        const args = setArgs(options);
        return add(
          () => (args ? tx.set(key, value, args) : tx.set(key, value)),
          (result) => result === 'OK',
        );
      },
      del: (key) => add(() => tx.del(key), Number),
      incr: (key, ttlSeconds) => {
        add(() => tx.incr(key), Number);
        if (ttlSeconds) {
          tx.expire(key, ttlSeconds, 'NX');
          decoders.push(skip);
        }
        return builder;
      },
      decr: (key) => add(() => tx.decr(key), Number),
      expire: (key, seconds) =>
        add(
          () => tx.expire(key, seconds),
          (result) => Number(result) === 1,
        ),
      rpush: (key, ...values) => add(() => tx.rpush(key, ...values), Number),
      lrange: (key, start, stop) => add(() => tx.lrange(key, start, stop), asStrings),
      ltrim: (key, start, stop) =>
        add(
          () => tx.ltrim(key, start, stop),
          () => undefined,
        ),
      llen: (key) => add(() => tx.llen(key), Number),
      hset: (key, fields) =>
        add(
          () => tx.hset(key, fields),
          () => undefined,
        ),
      hgetall: (key) => add(() => tx.hgetall(key), asHash),
      hget: (key, field) => add(() => tx.hget(key, field), asStringOrNull),
      hincrby: (key, field, by) => add(() => tx.hincrby(key, field, by), Number),
      hdel: (key, ...fields) => add(() => tx.hdel(key, ...fields), Number),
      sadd: (key, ...members) => add(() => tx.sadd(key, members[0]!, ...members.slice(1)), Number),
      scard: (key) => add(() => tx.scard(key), Number),
      exec: async () => {
        if (decoders.length === 0) return [];
        const results = (await tx.exec()) as unknown[];
        const out: unknown[] = [];
        results.forEach((result, index) => {
          const decode = decoders[index]!;
          if (decode !== skip) out.push(decode(result));
        });
        return out;
      },
    };
    function add(queue: () => unknown, decode: (value: unknown) => unknown): StoreBatch {
      queue();
      decoders.push(decode);
      return builder;
    }
    return builder;
  }

  async function single<T>(build: (b: StoreBatch) => StoreBatch): Promise<T> {
    const [result] = await build(batch()).exec();
    return result as T;
  }

  async function scanKeys(prefix: string): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, { match: `${escapeGlob(prefix)}*`, count: 500 });
      cursor = String(next);
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  }

  return {
    kind: 'upstash',
    get: async (key) => asStringOrNull(await redis.get(key)),
    set: async (key, value, options) => {
      const args = setArgs(options);
      const result = args ? await redis.set(key, value, args) : await redis.set(key, value);
      return result === 'OK';
    },
    del: async (...keys) => (keys.length ? Number(await redis.del(...keys)) : 0),
    incr: (key, ttlSeconds) => single((b) => b.incr(key, ttlSeconds)),
    decr: async (key) => Number(await redis.decr(key)),
    expire: async (key, seconds) => Number(await redis.expire(key, seconds)) === 1,
    ttl: async (key) => Number(await redis.ttl(key)),
    rpush: async (key, ...values) => Number(await redis.rpush(key, ...values)),
    lrange: async (key, start, stop) => asStrings(await redis.lrange(key, start, stop)),
    ltrim: async (key, start, stop) => {
      await redis.ltrim(key, start, stop);
    },
    llen: async (key) => Number(await redis.llen(key)),
    hset: async (key, fields) => {
      await redis.hset(key, fields);
    },
    hgetall: async (key) => asHash(await redis.hgetall(key)),
    hget: async (key, field) => asStringOrNull(await redis.hget(key, field)),
    hincrby: async (key, field, by) => Number(await redis.hincrby(key, field, by)),
    hdel: async (key, ...fields) => (fields.length ? Number(await redis.hdel(key, ...fields)) : 0),
    sadd: async (key, ...members) =>
      members.length ? Number(await redis.sadd(key, members[0]!, ...members.slice(1))) : 0,
    scard: async (key) => Number(await redis.scard(key)),

    async setBlob(key, value, ttlSeconds) {
      // Parts go under a fresh version first; the manifest swap makes the new value visible at once.
      const version = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
      const partCount = Math.max(1, Math.ceil(value.byteLength / BLOB_PART_BYTES));
      for (let index = 0; index < partCount; index++) {
        const part = value.subarray(index * BLOB_PART_BYTES, (index + 1) * BLOB_PART_BYTES);
        const encoded = Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('base64');
        const partKey = `${key}:blob:${version}:${index}`;
        if (ttlSeconds) await redis.set(partKey, encoded, { ex: ttlSeconds });
        else await redis.set(partKey, encoded);
      }
      const manifest = JSON.stringify({ version, parts: partCount, bytes: value.byteLength });
      const previous = asStringOrNull(await redis.get(key));
      if (ttlSeconds) await redis.set(key, manifest, { ex: ttlSeconds });
      else await redis.set(key, manifest);
      if (previous) await deleteParts(key, previous);
    },
    async getBlob(key) {
      const manifest = asStringOrNull(await redis.get(key));
      if (!manifest) return null;
      const { version, parts, bytes } = JSON.parse(manifest) as {
        version: string;
        parts: number;
        bytes: number;
      };
      const keys = Array.from({ length: parts }, (_, index) => `${key}:blob:${version}:${index}`);
      const encoded = (await blobRedis.mget(...keys)) as (string | null)[];
      if (encoded.some((part) => part === null)) return null;
      // Each part decoded straight into its place: no buffer per part.
      const out = Buffer.allocUnsafe(bytes);
      let offset = 0;
      for (const part of encoded) offset += out.write(part!, offset, 'base64');
      if (offset !== bytes) return null;
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    },
    async delBlob(key) {
      const manifest = asStringOrNull(await redis.get(key));
      await redis.del(key);
      if (manifest) await deleteParts(key, manifest);
    },
    countKeys: async (prefix) => (await scanKeys(prefix)).length,
    async deleteByPrefix(prefix) {
      const keys = await scanKeys(prefix);
      for (let index = 0; index < keys.length; index += 500)
        await redis.del(...keys.slice(index, index + 500));
      return keys.length;
    },
    async keySizes(prefix) {
      const keys = (await scanKeys(prefix)).sort();
      const sizes: KeySize[] = [];
      for (let index = 0; index < keys.length; index += SIZE_KEYS_PER_SCRIPT) {
        const group = keys.slice(index, index + SIZE_KEYS_PER_SCRIPT);
        const bytes = (await redis.eval(KEY_SIZES_SCRIPT, group, [])) as unknown[];
        group.forEach((key, at) => {
          const size = Number(bytes[at]);
          if (size >= 0) sizes.push({ key, bytes: size });
        });
      }
      return sizes;
    },
    batch,
    async ping() {
      await redis.ping();
    },
    async close() {},
  };

  async function deleteParts(key: string, manifest: string): Promise<void> {
    try {
      const { version, parts } = JSON.parse(manifest) as { version: string; parts: number };
      const keys = Array.from({ length: parts }, (_, index) => `${key}:blob:${version}:${index}`);
      await redis.del(...keys);
    } catch {
      // a manifest that is not ours: nothing to clean up
    }
  }
}

function skip(value: unknown): unknown {
  return value;
}

function asStringOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.map((item) => asStringOrNull(item) ?? '') : [];
}

function asHash(value: unknown): Record<string, string> {
  if (Array.isArray(value)) {
    const hash: Record<string, string> = {};
    for (let index = 0; index + 1 < value.length; index += 2) {
      hash[String(value[index])] = asStringOrNull(value[index + 1]) ?? '';
    }
    return hash;
  }
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(
    Object.entries(value).map(([field, item]) => [field, asStringOrNull(item) ?? '']),
  );
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}
