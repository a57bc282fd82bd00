import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { SetOptions, Store, StoreBatch } from './types.js';

type Value =
  | { type: 'string'; value: string }
  | { type: 'list'; value: string[] }
  | { type: 'hash'; value: Map<string, string> }
  | { type: 'set'; value: Set<string> }
  | { type: 'blob'; value: Uint8Array };

interface Entry {
  data: Value;
  /** Unix milliseconds; undefined = no expiry. */
  expiresAt?: number;
}

/** One line of the append-only file: a mutation with absolute times so replay is exact. */
type LogRecord =
  | { op: 'put'; key: string; data: SerializedValue; expiresAt?: number }
  | { op: 'rpush'; key: string; values: string[] }
  | { op: 'sadd'; key: string; members: string[] }
  | { op: 'del'; key: string }
  | { op: 'expireAt'; key: string; at: number | null };

type SerializedValue =
  | { type: 'string'; value: string }
  | { type: 'list'; value: string[] }
  | { type: 'hash'; value: Record<string, string> }
  | { type: 'set'; value: string[] }
  | { type: 'blob'; value: string };

export interface EmbeddedStoreOptions {
  /** Folder of the append-only file; without it the store lives in memory only. */
  dataDir?: string;
  /** Clock in Unix milliseconds (tests). */
  now?: () => number;
}

const LOG_FILE = 'store.aof';
const COMPACT_MIN_BYTES = 4 * 1024 * 1024;

/**
 * The store of a laptop: in memory, every mutation appended to `<dataDir>/store.aof` and replayed
 * at start, so a local server keeps what it learned across restarts. Operations run
 * synchronously inside one process, so each one (and each batch) is atomic.
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const logPath = options.dataDir ? join(options.dataDir, LOG_FILE) : undefined;
  let logBytes = 0;
  let liveBytesAtCompaction = 0;

  if (logPath) {
    mkdirSync(options.dataDir!, { recursive: true });
    if (existsSync(logPath)) replay(readFileSync(logPath, 'utf8'));
    compact();
  }

  function replay(text: string): void {
    for (const line of text.split('\n')) {
      if (!line) continue;
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        continue; // a torn last line after a crash: everything before it is intact
      }
      if (record.op === 'put')
        entries.set(record.key, { data: deserialize(record.data), expiresAt: record.expiresAt });
      else if (record.op === 'rpush') {
        const entry = entries.get(record.key);
        if (entry?.data.type === 'list') entry.data.value.push(...record.values);
        else entries.set(record.key, { data: { type: 'list', value: [...record.values] } });
      } else if (record.op === 'sadd') {
        const entry = entries.get(record.key);
        if (entry?.data.type === 'set') for (const member of record.members) entry.data.value.add(member);
        else entries.set(record.key, { data: { type: 'set', value: new Set(record.members) } });
      } else if (record.op === 'del') entries.delete(record.key);
      else {
        const entry = entries.get(record.key);
        if (entry) entry.expiresAt = record.at ?? undefined;
      }
    }
  }

  function append(record: LogRecord): void {
    if (!logPath) return;
    const line = `${JSON.stringify(record)}\n`;
    appendFileSync(logPath, line);
    logBytes += line.length;
    if (logBytes > COMPACT_MIN_BYTES && logBytes > 2 * liveBytesAtCompaction) compact();
  }

  /** Rewrites the file with one record per live key (write to a temp file, then rename). */
  function compact(): void {
    if (!logPath) return;
    const lines: string[] = [];
    const time = now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= time) continue;
      lines.push(JSON.stringify({ op: 'put', key, data: serialize(entry.data), expiresAt: entry.expiresAt }));
    }
    const text = lines.length ? `${lines.join('\n')}\n` : '';
    writeFileSync(`${logPath}.tmp`, text);
    renameSync(`${logPath}.tmp`, logPath);
    logBytes = statSync(logPath).size;
    liveBytesAtCompaction = logBytes;
  }

  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  function typed<T extends Value['type']>(key: string, type: T): Extract<Value, { type: T }> | undefined {
    const entry = live(key);
    if (!entry) return undefined;
    if (entry.data.type !== type) {
      throw new Error(`WRONGTYPE Operation against a key holding the wrong kind of value (${key})`);
    }
    return entry.data as Extract<Value, { type: T }>;
  }

  function put(key: string, data: Value, expiresAt: number | undefined): void {
    entries.set(key, { data, expiresAt });
    append({ op: 'put', key, data: serialize(data), expiresAt });
  }

  const ops = {
    get(key: string): string | null {
      return typed(key, 'string')?.value ?? null;
    },
    set(key: string, value: string, options: SetOptions = {}): boolean {
      if (options.ifAbsent && live(key)) return false;
      put(key, { type: 'string', value }, options.ttlSeconds ? now() + options.ttlSeconds * 1000 : undefined);
      return true;
    },
    del(key: string): number {
      if (!live(key)) return 0;
      entries.delete(key);
      append({ op: 'del', key });
      return 1;
    },
    incr(key: string, ttlSeconds?: number): number {
      return ops.incrBy(key, 1, ttlSeconds);
    },
    decr(key: string): number {
      return ops.incrBy(key, -1);
    },
    incrBy(key: string, by: number, ttlSeconds?: number): number {
      const entry = live(key);
      const current = typed(key, 'string')?.value ?? '0';
      if (!/^-?\d+$/.test(current)) throw new Error('ERR value is not an integer or out of range');
      const next = Number(current) + by;
      let expiresAt = entry?.expiresAt;
      if (expiresAt === undefined && ttlSeconds) expiresAt = now() + ttlSeconds * 1000;
      put(key, { type: 'string', value: String(next) }, expiresAt);
      return next;
    },
    expire(key: string, seconds: number): boolean {
      const entry = live(key);
      if (!entry) return false;
      entry.expiresAt = now() + seconds * 1000;
      append({ op: 'expireAt', key, at: entry.expiresAt });
      return true;
    },
    ttl(key: string): number {
      const entry = live(key);
      if (!entry) return -2;
      if (entry.expiresAt === undefined) return -1;
      return Math.ceil((entry.expiresAt - now()) / 1000);
    },
    rpush(key: string, values: string[]): number {
      const list = typed(key, 'list')?.value;
      if (list) list.push(...values);
      else entries.set(key, { data: { type: 'list', value: [...values] } });
      // Logging only the new items keeps the file linear in what was pushed.
      append({ op: 'rpush', key, values });
      return (list ?? values).length;
    },
    lrange(key: string, start: number, stop: number): string[] {
      const list = typed(key, 'list')?.value ?? [];
      const [from, to] = listRange(list.length, start, stop);
      return list.slice(from, to + 1);
    },
    ltrim(key: string, start: number, stop: number): void {
      const entry = live(key);
      const list = typed(key, 'list')?.value;
      if (!entry || !list) return;
      const [from, to] = listRange(list.length, start, stop);
      const kept = list.slice(from, to + 1);
      if (kept.length === 0) ops.del(key);
      else put(key, { type: 'list', value: kept }, entry.expiresAt);
    },
    llen(key: string): number {
      return typed(key, 'list')?.value.length ?? 0;
    },
    hset(key: string, fields: Record<string, string | number>): void {
      const entry = live(key);
      const hash = new Map(typed(key, 'hash')?.value ?? []);
      for (const [field, value] of Object.entries(fields)) hash.set(field, String(value));
      put(key, { type: 'hash', value: hash }, entry?.expiresAt);
    },
    hgetall(key: string): Record<string, string> {
      return Object.fromEntries(typed(key, 'hash')?.value ?? []);
    },
    hincrby(key: string, field: string, by: number): number {
      const entry = live(key);
      const hash = new Map(typed(key, 'hash')?.value ?? []);
      const next = Number(hash.get(field) ?? '0') + by;
      hash.set(field, String(next));
      put(key, { type: 'hash', value: hash }, entry?.expiresAt);
      return next;
    },
    sadd(key: string, members: string[]): number {
      let set = typed(key, 'set')?.value;
      if (!set) {
        set = new Set();
        entries.set(key, { data: { type: 'set', value: set } });
      }
      const added = members.filter((member) => !set.has(member));
      for (const member of added) set.add(member);
      if (added.length) append({ op: 'sadd', key, members: added });
      return new Set(added).size;
    },
    scard(key: string): number {
      return typed(key, 'set')?.value.size ?? 0;
    },
  };

  function batch(): StoreBatch {
    const queued: (() => unknown)[] = [];
    const builder: StoreBatch = {
      get: (key) => queue(() => ops.get(key)),
      set: (key, value, options) => queue(() => ops.set(key, value, options)),
      del: (key) => queue(() => ops.del(key)),
      incr: (key, ttlSeconds) => queue(() => ops.incr(key, ttlSeconds)),
      decr: (key) => queue(() => ops.decr(key)),
      expire: (key, seconds) => queue(() => ops.expire(key, seconds)),
      rpush: (key, ...values) => queue(() => ops.rpush(key, values)),
      lrange: (key, start, stop) => queue(() => ops.lrange(key, start, stop)),
      ltrim: (key, start, stop) => queue(() => ops.ltrim(key, start, stop)),
      llen: (key) => queue(() => ops.llen(key)),
      hset: (key, fields) => queue(() => ops.hset(key, fields)),
      hgetall: (key) => queue(() => ops.hgetall(key)),
      hincrby: (key, field, by) => queue(() => ops.hincrby(key, field, by)),
      sadd: (key, ...members) => queue(() => ops.sadd(key, members)),
      scard: (key) => queue(() => ops.scard(key)),
      exec: async () => queued.map((run) => run()),
    };
    function queue(run: () => unknown): StoreBatch {
      queued.push(run);
      return builder;
    }
    return builder;
  }

  return {
    kind: 'embedded',
    get: async (key) => ops.get(key),
    set: async (key, value, options) => ops.set(key, value, options),
    del: async (...keys) => keys.reduce((count, key) => count + ops.del(key), 0),
    incr: async (key, ttlSeconds) => ops.incr(key, ttlSeconds),
    decr: async (key) => ops.decr(key),
    expire: async (key, seconds) => ops.expire(key, seconds),
    ttl: async (key) => ops.ttl(key),
    rpush: async (key, ...values) => ops.rpush(key, values),
    lrange: async (key, start, stop) => ops.lrange(key, start, stop),
    ltrim: async (key, start, stop) => ops.ltrim(key, start, stop),
    llen: async (key) => ops.llen(key),
    hset: async (key, fields) => ops.hset(key, fields),
    hgetall: async (key) => ops.hgetall(key),
    hincrby: async (key, field, by) => ops.hincrby(key, field, by),
    sadd: async (key, ...members) => ops.sadd(key, members),
    scard: async (key) => ops.scard(key),
    async setBlob(key, value, ttlSeconds) {
      put(
        key,
        { type: 'blob', value: new Uint8Array(value) },
        ttlSeconds ? now() + ttlSeconds * 1000 : undefined,
      );
    },
    async getBlob(key) {
      const blob = typed(key, 'blob')?.value;
      return blob ? new Uint8Array(blob) : null;
    },
    async delBlob(key) {
      ops.del(key);
    },
    async countKeys(prefix) {
      let count = 0;
      for (const key of [...entries.keys()]) if (key.startsWith(prefix) && live(key)) count++;
      return count;
    },
    async deleteByPrefix(prefix) {
      let count = 0;
      for (const key of [...entries.keys()]) if (key.startsWith(prefix)) count += ops.del(key);
      return count;
    },
    batch,
    async ping() {},
    async close() {
      compact();
    },
  };
}

function listRange(length: number, start: number, stop: number): [number, number] {
  const from = Math.max(0, start < 0 ? length + start : start);
  const to = Math.min(length - 1, stop < 0 ? length + stop : stop);
  return [from, to];
}

function serialize(data: Value): SerializedValue {
  switch (data.type) {
    case 'hash':
      return { type: 'hash', value: Object.fromEntries(data.value) };
    case 'set':
      return { type: 'set', value: [...data.value] };
    case 'blob':
      return { type: 'blob', value: Buffer.from(data.value).toString('base64') };
    default:
      return data;
  }
}

function deserialize(data: SerializedValue): Value {
  switch (data.type) {
    case 'hash':
      return { type: 'hash', value: new Map(Object.entries(data.value)) };
    case 'set':
      return { type: 'set', value: new Set(data.value) };
    case 'blob':
      return { type: 'blob', value: new Uint8Array(Buffer.from(data.value, 'base64')) };
    default:
      return data;
  }
}
