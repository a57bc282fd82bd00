import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { crc32 } from 'node:zlib';
import { LEGACY_FILE, type LegacyEntry, readLegacyFile } from './aof-migration.js';
import { isDamageError, StoreStartupError } from './errors.js';
import type { SetOptions, Store, StoreBatch } from './types.js';

export interface EmbeddedStoreOptions {
  /** Folder of the database file `store.db`; without it the store lives in memory only. */
  dataDir?: string;
  /** Clock in Unix milliseconds (tests). */
  now?: () => number;
}

export const STORE_FILE = 'store.db';
/** How long a write waits for another process's transaction before it fails (SQLITE_BUSY). */
const BUSY_TIMEOUT_MS = 10_000;
/** Pause between attempts to open a file another process is setting up at the same moment. */
const OPEN_RETRY_MS = 25;
/** Expired keys are swept once every this many write transactions of a process. */
const SWEEP_EVERY_WRITES = 500;
/** Hash fields written by one statement (each count of rows is a statement of its own, kept prepared). */
const HSET_ROWS = 8;

type EntryType = 'string' | 'list' | 'hash' | 'set' | 'blob';

type BatchOp = Exclude<keyof StoreBatch, 'exec'>;

/** An entry row as a group has read or changed it (`entry` undefined: no such key). */
interface CachedEntry {
  entry: Entry | undefined;
  dirty: boolean;
}

/** A write (or a read queued behind writes) waiting for the next group commit. */
interface Unit {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Entry {
  type: EntryType;
  value: string | Uint8Array | null;
  /** Lists: position of the first item (items keep their positions; ltrim moves the head). */
  head: number;
  /** Lists: number of items; sets: number of members. */
  size: number;
  expiresAt: number | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
  key TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  value BLOB,
  head INTEGER NOT NULL,
  size INTEGER NOT NULL,
  expires_at INTEGER,
  crc INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_expiry ON entries (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS list_items (
  key TEXT NOT NULL, pos INTEGER NOT NULL, value TEXT NOT NULL, crc INTEGER NOT NULL,
  PRIMARY KEY (key, pos)
);
CREATE TABLE IF NOT EXISTS hash_fields (
  key TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, crc INTEGER NOT NULL,
  PRIMARY KEY (key, field)
);
CREATE TABLE IF NOT EXISTS set_members (
  key TEXT NOT NULL, member TEXT NOT NULL, crc INTEGER NOT NULL,
  PRIMARY KEY (key, member)
) WITHOUT ROWID;
`;

/** Every key under a prefix with the bytes of its name and content, whatever its type. */
const KEY_SIZES = `
SELECT e.key AS key, e.expires_at AS expires_at,
  length(CAST(e.key AS BLOB)) + coalesce(length(CAST(e.value AS BLOB)), 0)
  + coalesce((SELECT sum(length(CAST(l.value AS BLOB))) FROM list_items l WHERE l.key = e.key), 0)
  + coalesce((SELECT sum(length(CAST(h.field AS BLOB)) + length(CAST(h.value AS BLOB)))
      FROM hash_fields h WHERE h.key = e.key), 0)
  + coalesce((SELECT sum(length(CAST(m.member AS BLOB))) FROM set_members m WHERE m.key = e.key), 0) AS bytes
FROM entries e WHERE instr(e.key, ?) = 1 ORDER BY e.key`;

/**
 * The store of a laptop or a single server: SQLite (`node:sqlite`) in `<dataDir>/store.db`.
 * WAL mode with synchronous=FULL, so an acknowledged write is on disk before the call returns
 * (it survives kill -9 and a power cut). The writes of one event-loop turn are committed together
 * in one `BEGIN IMMEDIATE` transaction (group commit), every write and every batch in its own
 * savepoint, so each is all-or-nothing and several processes on one folder keep exact counts.
 * Each row carries a CRC-32 of its content, checked with `PRAGMA quick_check` at start: a damaged
 * file stops the start with one clear line and is kept aside, never emptied or rewritten. An old `store.aof` of the
 * append-only store is migrated on first start.
 */
export function createEmbeddedStore(options: EmbeddedStoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const db = options.dataDir ? openFile(resolve(options.dataDir)) : openMemory();
  const statements = new Map<string, StatementSync>();
  let writesSinceSweep = 0;
  let closed = false;

  function sql(text: string): StatementSync {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  }

  function transaction<T>(mode: 'read' | 'write', run: () => T): T {
    db.exec(mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN');
    try {
      const result = run();
      if (mode === 'write' && ++writesSinceSweep >= SWEEP_EVERY_WRITES) {
        writesSinceSweep = 0;
        sweepExpired();
      }
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
  /**
   * Group commit: a write waits for the end of the event loop's turn (`setImmediate`) and is
   * committed with every other write of that turn in one transaction, each in its own savepoint
   * (a failing one is rolled back alone and rejects alone). Its promise settles only after the
   * COMMIT, so an acknowledged write is still on disk; concurrent requests share one fsync instead
   * of paying one each. A read queues behind pending writes, so it sees what was written before it.
   */
  let pending: Unit[] = [];

  function read<T>(run: () => T): T | Promise<T> {
    return pending.length === 0 ? transaction('read', () => inUnit(run)) : write(run);
  }

  /** Queues `run` for the next group commit; settles after the COMMIT. */
  function write<T>(run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (closed) throw new Error('the embedded store is closed');
      if (pending.length === 0) setImmediate(commitPending);
      pending.push({ run, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  function commitPending(): void {
    const group = pending;
    pending = [];
    if (group.length === 0) return;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      transaction('write', () => {
        cachedEntries = new Map();
        try {
          for (const unit of group) {
            db.exec('SAVEPOINT unit');
            try {
              outcomes.push({ ok: true, value: groupUnit(unit.run) });
              db.exec('RELEASE unit');
            } catch (error) {
              db.exec('ROLLBACK TO unit');
              db.exec('RELEASE unit');
              outcomes.push({ ok: false, value: error });
            }
          }
          // Every row the group changed, once; a failure here fails the whole group.
          flushEntries();
        } finally {
          cachedEntries = undefined;
        }
      });
    } catch (error) {
      // Nothing of the group landed (the lock, the disk or the commit failed).
      for (const unit of group) unit.reject(error);
      return;
    }
    group.forEach((unit, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) unit.resolve(outcome.value);
      else unit.reject(outcome.value);
    });
  }

  /** Copies an old `store.aof` in one transaction (once, even with several processes starting). */
  function migrateLegacyFile(dir: string): void {
    const legacy = join(dir, LEGACY_FILE);
    if (!existsSync(legacy)) return;
    transaction('write', () => {
      if (sql(`SELECT value FROM meta WHERE name = 'legacy_migrated'`).get()) return;
      for (const entry of readLegacyFile(legacy, now())) importLegacy(entry);
      sql(`INSERT INTO meta (name, value) VALUES ('legacy_migrated', ?)`).run(new Date(now()).toISOString());
    });
    try {
      renameSync(legacy, `${legacy}.migrated`);
    } catch (error) {
      // another process starting at the same moment renamed it first
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  function importLegacy(entry: LegacyEntry): void {
    const { key, expiresAt } = entry;
    if (entry.type === 'string' || entry.type === 'blob') {
      put(key, entry.type, entry.value, 0, 0, expiresAt);
      return;
    }
    put(key, entry.type, null, 0, 0, expiresAt);
    if (entry.type === 'list') ops.rpush(key, entry.value);
    else if (entry.type === 'hash') ops.hset(key, entry.value);
    else ops.sadd(key, entry.value);
  }

  function sweepExpired(): void {
    flushEntries();
    const expired = sql(`SELECT key, type FROM entries WHERE expires_at <= ?`).all(now()) as {
      key: string;
      type: EntryType;
    }[];
    for (const { key, type } of expired) remove(key, type);
  }

  /**
   * While a group commit (or a read) runs, the entry rows its units have read or written, by key:
   * a key touched several times, by one batch (rpush, ltrim and expire of a session's turns) or by
   * several writes of the group (the day's list of the question log, the chat counters), has its
   * row read once and written once, when the group ends (`flushEntries`, before the COMMIT),
   * instead of once per operation. A unit that fails gets its rows back from `undo` as its
   * savepoint is rolled back. Undefined outside: rows are read and written at once.
   */
  let cachedEntries: Map<string, CachedEntry> | undefined;
  /** The cached rows as they were before the running unit changed them (undefined: not cached). */
  let undo: Map<string, CachedEntry | undefined> | undefined;

  /** Runs `run` with an entry cache of its own (a read, or a write outside a group). */
  function inUnit<T>(run: () => T): T {
    if (cachedEntries) return run();
    cachedEntries = new Map();
    try {
      const result = run();
      flushEntries();
      return result;
    } finally {
      cachedEntries = undefined;
    }
  }

  /** Runs one unit of a group: on error its changes to the cached rows are undone (its savepoint rolls back the rest). */
  function groupUnit<T>(run: () => T): T {
    undo = new Map();
    try {
      return run();
    } catch (error) {
      for (const [key, before] of undo) {
        if (before) cachedEntries!.set(key, before);
        else cachedEntries!.delete(key);
      }
      throw error;
    } finally {
      undo = undefined;
    }
  }

  function cache(key: string, value: CachedEntry): void {
    if (undo && !undo.has(key)) undo.set(key, cachedEntries!.get(key));
    cachedEntries!.set(key, value);
  }

  /**
   * Writes the changed rows. Inside a unit (before a query that reads the entries table itself)
   * they stay marked changed: the unit's savepoint may still roll the writes back.
   */
  function flushEntries(): void {
    if (!cachedEntries) return;
    for (const [key, cached] of cachedEntries) {
      const entry = cached.entry;
      if (!cached.dirty || !entry) continue;
      writeEntry(key, entry.type, entry.value, entry.head, entry.size, entry.expiresAt);
      if (!undo) cached.dirty = false;
    }
  }

  function writeEntry(
    key: string,
    type: EntryType,
    value: string | Uint8Array | null,
    head: number,
    size: number,
    expiresAt: number | null,
  ): void {
    sql(
      `INSERT INTO entries (key, type, value, head, size, expires_at, crc) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET type = excluded.type, value = excluded.value, head = excluded.head,
         size = excluded.size, expires_at = excluded.expires_at, crc = excluded.crc`,
    ).run(key, type, value, head, size, expiresAt, entryCrc(key, type, value, head, size, expiresAt));
  }

  function rawEntry(key: string): Entry | undefined {
    const cached = cachedEntries?.get(key);
    if (cached) return cached.entry;
    const entry = selectEntry(key);
    if (cachedEntries) cache(key, { entry, dirty: false });
    return entry;
  }

  function selectEntry(key: string): Entry | undefined {
    const row = sql(`SELECT type, value, head, size, expires_at FROM entries WHERE key = ?`).get(key) as
      | {
          type: EntryType;
          value: string | Uint8Array | null;
          head: number;
          size: number;
          expires_at: number | null;
        }
      | undefined;
    if (!row) return undefined;
    return { type: row.type, value: row.value, head: row.head, size: row.size, expiresAt: row.expires_at };
  }

  /** The entry unless missing or expired (an expired one is removed when inside a write). */
  function live(key: string): Entry | undefined {
    const entry = rawEntry(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= now()) {
      if (db.isTransaction) remove(key, entry.type);
      return undefined;
    }
    return entry;
  }

  function typed(key: string, type: EntryType): Entry | undefined {
    const entry = live(key);
    if (entry && entry.type !== type) {
      throw new Error(`WRONGTYPE Operation against a key holding the wrong kind of value (${key})`);
    }
    return entry;
  }

  function remove(key: string, type: EntryType): void {
    sql(`DELETE FROM entries WHERE key = ?`).run(key);
    if (cachedEntries) cache(key, { entry: undefined, dirty: false });
    if (type === 'list') sql(`DELETE FROM list_items WHERE key = ?`).run(key);
    else if (type === 'hash') sql(`DELETE FROM hash_fields WHERE key = ?`).run(key);
    else if (type === 'set') sql(`DELETE FROM set_members WHERE key = ?`).run(key);
  }

  /**
   * Writes an entry row; a key of another type (or an expired one) loses its old content first.
   * `stored` is the row as the operation has just read it through `live` or `typed` (null: none,
   * or an expired one those removed), which saves reading it again; undefined reads it.
   */
  function put(
    key: string,
    type: EntryType,
    value: string | Uint8Array | null,
    head: number,
    size: number,
    expiresAt: number | null,
    stored?: Entry | null,
  ): void {
    const existing = stored === undefined ? rawEntry(key) : (stored ?? undefined);
    const expired = existing?.expiresAt != null && existing.expiresAt <= now();
    if (existing && (existing.type !== type || expired)) remove(key, existing.type);
    if (cachedEntries) cache(key, { entry: { type, value, head, size, expiresAt }, dirty: true });
    else writeEntry(key, type, value, head, size, expiresAt);
  }

  /** Writes `entry` over the row `stored` that the operation read (null when there was none). */
  function update(key: string, entry: Entry, stored: Entry | null): void {
    put(key, entry.type, entry.value, entry.head, entry.size, entry.expiresAt, stored);
  }

  function expiryOf(ttlSeconds: number | undefined): number | null {
    return ttlSeconds ? now() + ttlSeconds * 1000 : null;
  }

  const ops = {
    get(key: string): string | null {
      const entry = typed(key, 'string');
      return entry ? String(entry.value) : null;
    },
    set(key: string, value: string, setOptions: SetOptions = {}): boolean {
      if (setOptions.ifAbsent) {
        if (live(key)) return false;
        put(key, 'string', value, 0, 0, expiryOf(setOptions.ttlSeconds), null);
        return true;
      }
      put(key, 'string', value, 0, 0, expiryOf(setOptions.ttlSeconds));
      return true;
    },
    del(key: string): number {
      const entry = rawEntry(key);
      if (!entry) return 0;
      const wasLive = entry.expiresAt === null || entry.expiresAt > now();
      remove(key, entry.type);
      return wasLive ? 1 : 0;
    },
    incrBy(key: string, by: number, ttlSeconds?: number): number {
      const entry = typed(key, 'string');
      const current = entry ? String(entry.value) : '0';
      if (!/^-?\d+$/.test(current)) throw new Error('ERR value is not an integer or out of range');
      const next = Number(current) + by;
      put(key, 'string', String(next), 0, 0, entry?.expiresAt ?? expiryOf(ttlSeconds), entry ?? null);
      return next;
    },
    expire(key: string, seconds: number): boolean {
      const entry = live(key);
      if (!entry) return false;
      update(key, { ...entry, expiresAt: now() + seconds * 1000 }, entry);
      return true;
    },
    ttl(key: string): number {
      const entry = live(key);
      if (!entry) return -2;
      if (entry.expiresAt === null) return -1;
      return Math.ceil((entry.expiresAt - now()) / 1000);
    },
    rpush(key: string, values: string[]): number {
      const stored = typed(key, 'list') ?? null;
      const entry = stored ?? { type: 'list', value: null, head: 0, size: 0, expiresAt: null };
      const insert = sql(`INSERT INTO list_items (key, pos, value, crc) VALUES (?, ?, ?, ?)`);
      values.forEach((value, index) => {
        const pos = entry.head + entry.size + index;
        insert.run(key, pos, value, itemCrc(key, pos, value));
      });
      const size = entry.size + values.length;
      update(key, { ...entry, size }, stored);
      return size;
    },
    lrange(key: string, start: number, stop: number): string[] {
      const entry = typed(key, 'list');
      if (!entry) return [];
      const [from, to] = listRange(entry.size, start, stop);
      if (from > to) return [];
      const rows = sql(`SELECT value FROM list_items WHERE key = ? AND pos BETWEEN ? AND ? ORDER BY pos`).all(
        key,
        entry.head + from,
        entry.head + to,
      ) as { value: string }[];
      return rows.map((row) => row.value);
    },
    ltrim(key: string, start: number, stop: number): void {
      const entry = typed(key, 'list');
      if (!entry) return;
      const [from, to] = listRange(entry.size, start, stop);
      if (from > to) {
        remove(key, 'list');
        return;
      }
      sql(`DELETE FROM list_items WHERE key = ? AND (pos < ? OR pos > ?)`).run(
        key,
        entry.head + from,
        entry.head + to,
      );
      update(key, { ...entry, head: entry.head + from, size: to - from + 1 }, entry);
    },
    llen(key: string): number {
      return typed(key, 'list')?.size ?? 0;
    },
    hset(key: string, fields: Record<string, string | number>): void {
      const entry = typed(key, 'hash');
      if (!entry) put(key, 'hash', null, 0, 0, null, null);
      // Up to HSET_ROWS fields in one statement: a reply's record of five fields is one upsert.
      const pairs = Object.entries(fields);
      for (let start = 0; start < pairs.length; start += HSET_ROWS) {
        const rows = pairs.slice(start, start + HSET_ROWS);
        const parameters: (string | number)[] = [];
        for (const [field, raw] of rows) {
          const value = String(raw);
          parameters.push(key, field, value, fieldCrc(key, field, value));
        }
        sql(
          `INSERT INTO hash_fields (key, field, value, crc) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')}
         ON CONFLICT (key, field) DO UPDATE SET value = excluded.value, crc = excluded.crc`,
        ).run(...parameters);
      }
    },
    hgetall(key: string): Record<string, string> {
      if (!typed(key, 'hash')) return {};
      const rows = sql(`SELECT field, value FROM hash_fields WHERE key = ?`).all(key) as {
        field: string;
        value: string;
      }[];
      return Object.fromEntries(rows.map((row) => [row.field, row.value]));
    },
    hget(key: string, field: string): string | null {
      if (!typed(key, 'hash')) return null;
      const row = sql(`SELECT value FROM hash_fields WHERE key = ? AND field = ?`).get(key, field) as
        | { value: string }
        | undefined;
      return row?.value ?? null;
    },
    hincrby(key: string, field: string, by: number): number {
      const entry = typed(key, 'hash');
      const row = entry
        ? (sql(`SELECT value FROM hash_fields WHERE key = ? AND field = ?`).get(key, field) as
            | { value: string }
            | undefined)
        : undefined;
      const current = row?.value ?? '0';
      if (!/^-?\d+$/.test(current)) throw new Error('ERR hash value is not an integer');
      const next = Number(current) + by;
      ops.hset(key, { [field]: String(next) });
      return next;
    },
    hdel(key: string, fields: string[]): number {
      if (!typed(key, 'hash')) return 0;
      const remove = sql(`DELETE FROM hash_fields WHERE key = ? AND field = ?`);
      let removed = 0;
      for (const field of fields) removed += Number(remove.run(key, field).changes);
      return removed;
    },
    sadd(key: string, members: string[]): number {
      const stored = typed(key, 'set') ?? null;
      const entry = stored ?? { type: 'set', value: null, head: 0, size: 0, expiresAt: null };
      const insert = sql(`INSERT OR IGNORE INTO set_members (key, member, crc) VALUES (?, ?, ?)`);
      let added = 0;
      for (const member of members) {
        added += Number(insert.run(key, member, fieldCrc(key, member, '')).changes);
      }
      if (added > 0) update(key, { ...entry, size: entry.size + added }, stored);
      return added;
    },
    scard(key: string): number {
      return typed(key, 'set')?.size ?? 0;
    },
  };

  /** The operation a batch runs for each of its methods; a queued call is its name and arguments. */
  const batchOps: Record<BatchOp, { write: boolean; run: (...args: never[]) => unknown }> = {
    get: { write: false, run: (key: string) => ops.get(key) },
    set: { write: true, run: (key: string, value: string, o?: SetOptions) => ops.set(key, value, o) },
    del: { write: true, run: (key: string) => ops.del(key) },
    incr: { write: true, run: (key: string, ttl?: number) => ops.incrBy(key, 1, ttl) },
    decr: { write: true, run: (key: string) => ops.incrBy(key, -1) },
    expire: { write: true, run: (key: string, seconds: number) => ops.expire(key, seconds) },
    rpush: { write: true, run: (key: string, ...values: string[]) => ops.rpush(key, values) },
    lrange: { write: false, run: (key: string, a: number, b: number) => ops.lrange(key, a, b) },
    ltrim: { write: true, run: (key: string, a: number, b: number) => ops.ltrim(key, a, b) },
    llen: { write: false, run: (key: string) => ops.llen(key) },
    hset: {
      write: true,
      run: (key: string, fields: Record<string, string | number>) => ops.hset(key, fields),
    },
    hgetall: { write: false, run: (key: string) => ops.hgetall(key) },
    hget: { write: false, run: (key: string, field: string) => ops.hget(key, field) },
    hincrby: { write: true, run: (key: string, field: string, by: number) => ops.hincrby(key, field, by) },
    hdel: { write: true, run: (key: string, ...fields: string[]) => ops.hdel(key, fields) },
    sadd: { write: true, run: (key: string, ...members: string[]) => ops.sadd(key, members) },
    scard: { write: false, run: (key: string) => ops.scard(key) },
  };

  /**
   * A batch keeps its calls as data (the operation's name and arguments) and its methods on a
   * prototype: a chat message queues a dozen operations, and a closure per operation was a
   * measurable share of the store's CPU under load.
   */
  class EmbeddedBatch implements StoreBatch {
    private readonly queued: [BatchOp, unknown[]][] = [];
    private writes = false;

    private queue(op: BatchOp, args: unknown[]): this {
      this.writes ||= batchOps[op].write;
      this.queued.push([op, args]);
      return this;
    }
    get(...args: unknown[]) {
      return this.queue('get', args);
    }
    set(...args: unknown[]) {
      return this.queue('set', args);
    }
    del(...args: unknown[]) {
      return this.queue('del', args);
    }
    incr(...args: unknown[]) {
      return this.queue('incr', args);
    }
    decr(...args: unknown[]) {
      return this.queue('decr', args);
    }
    expire(...args: unknown[]) {
      return this.queue('expire', args);
    }
    rpush(...args: unknown[]) {
      return this.queue('rpush', args);
    }
    lrange(...args: unknown[]) {
      return this.queue('lrange', args);
    }
    ltrim(...args: unknown[]) {
      return this.queue('ltrim', args);
    }
    llen(...args: unknown[]) {
      return this.queue('llen', args);
    }
    hset(...args: unknown[]) {
      return this.queue('hset', args);
    }
    hgetall(...args: unknown[]) {
      return this.queue('hgetall', args);
    }
    hget(...args: unknown[]) {
      return this.queue('hget', args);
    }
    hincrby(...args: unknown[]) {
      return this.queue('hincrby', args);
    }
    hdel(...args: unknown[]) {
      return this.queue('hdel', args);
    }
    sadd(...args: unknown[]) {
      return this.queue('sadd', args);
    }
    scard(...args: unknown[]) {
      return this.queue('scard', args);
    }

    /** One unit: all of the batch lands, or (on any error) none of it. */
    async exec(): Promise<unknown[]> {
      const queued = this.queued;
      if (queued.length === 0) return [];
      const run = () => {
        const results: unknown[] = new Array(queued.length);
        for (let i = 0; i < queued.length; i++) {
          const [op, args] = queued[i];
          results[i] = (batchOps[op].run as (...a: unknown[]) => unknown)(...args);
        }
        return results;
      };
      return this.writes ? write(run) : read(run);
    }
  }

  function batch(): StoreBatch {
    return new EmbeddedBatch();
  }

  function keysWithPrefix(prefix: string): { key: string; type: EntryType; expires_at: number | null }[] {
    flushEntries();
    return sql(`SELECT key, type, expires_at FROM entries WHERE instr(key, ?) = 1`).all(prefix) as {
      key: string;
      type: EntryType;
      expires_at: number | null;
    }[];
  }

  try {
    transaction('write', sweepExpired);
    if (options.dataDir) migrateLegacyFile(resolve(options.dataDir));
  } catch (error) {
    db.close();
    throw error;
  }

  return {
    kind: 'embedded',
    get: async (key) => read(() => ops.get(key)),
    set: async (key, value, setOptions) => write(() => ops.set(key, value, setOptions)),
    del: async (...keys) => write(() => keys.reduce((count, key) => count + ops.del(key), 0)),
    incr: async (key, ttlSeconds) => write(() => ops.incrBy(key, 1, ttlSeconds)),
    decr: async (key) => write(() => ops.incrBy(key, -1)),
    expire: async (key, seconds) => write(() => ops.expire(key, seconds)),
    ttl: async (key) => read(() => ops.ttl(key)),
    rpush: async (key, ...values) => write(() => ops.rpush(key, values)),
    lrange: async (key, start, stop) => read(() => ops.lrange(key, start, stop)),
    ltrim: async (key, start, stop) => write(() => ops.ltrim(key, start, stop)),
    llen: async (key) => read(() => ops.llen(key)),
    hset: async (key, fields) => write(() => ops.hset(key, fields)),
    hgetall: async (key) => read(() => ops.hgetall(key)),
    hget: async (key, field) => read(() => ops.hget(key, field)),
    hincrby: async (key, field, by) => write(() => ops.hincrby(key, field, by)),
    hdel: async (key, ...fields) => write(() => ops.hdel(key, fields)),
    sadd: async (key, ...members) => write(() => ops.sadd(key, members)),
    scard: async (key) => read(() => ops.scard(key)),
    setBlob: async (key, value, ttlSeconds) =>
      write(() => put(key, 'blob', new Uint8Array(value), 0, 0, expiryOf(ttlSeconds))),
    getBlob: async (key) =>
      read(() => {
        const entry = typed(key, 'blob');
        return entry ? new Uint8Array(entry.value as Uint8Array) : null;
      }),
    delBlob: async (key) => {
      await write(() => ops.del(key));
    },
    countKeys: async (prefix) =>
      read(() => {
        const time = now();
        return keysWithPrefix(prefix).filter((row) => row.expires_at === null || row.expires_at > time)
          .length;
      }),
    deleteByPrefix: async (prefix) =>
      write(() => keysWithPrefix(prefix).reduce((count, row) => count + ops.del(row.key), 0)),
    keySizes: async (prefix) =>
      read(() => {
        const time = now();
        flushEntries();
        const rows = sql(KEY_SIZES).all(prefix) as {
          key: string;
          bytes: number;
          expires_at: number | null;
        }[];
        return rows
          .filter((row) => row.expires_at === null || row.expires_at > time)
          .map((row) => ({ key: row.key, bytes: Number(row.bytes) }));
      }),
    batch,
    async ping() {
      if (closed) throw new Error('the embedded store is closed');
      sql('SELECT 1').get();
    },
    async close() {
      if (closed) return;
      closed = true;
      commitPending();
      db.close();
    },
  };
}

/** Inclusive Redis range indexes (negative from the end) as clamped offsets; from > to when empty. */
function listRange(length: number, start: number, stop: number): [number, number] {
  const from = Math.max(0, start < 0 ? length + start : start);
  const to = Math.min(length - 1, stop < 0 ? length + stop : stop);
  return [from, to];
}

function entryCrc(
  key: string,
  type: string,
  value: string | Uint8Array | null,
  head: number,
  size: number,
  expiresAt: number | null,
): number {
  let crc = crc32(`${key}\0${type}\0${head}\0${size}\0${expiresAt ?? ''}\0`);
  if (value !== null) crc = crc32(value, crc);
  return crc;
}

function itemCrc(key: string, pos: number, value: string | Uint8Array): number {
  return crc32(value, crc32(`${key}\0${pos}\0`));
}

function fieldCrc(key: string, field: string, value: string | Uint8Array): number {
  return crc32(value, crc32(`${key}\0${field}\0`));
}

function sqlite(): typeof import('node:sqlite') {
  // Loaded on first use, so functions that run on Upstash never load SQLite.
  return process.getBuiltinModule('node:sqlite');
}

function openMemory(): DatabaseSync {
  const db = new (sqlite().DatabaseSync)(':memory:');
  db.exec(SCHEMA);
  return db;
}

/** Opens `<dir>/store.db` after checking it; throws StoreStartupError when it cannot be used. */
function openFile(dir: string): DatabaseSync {
  const path = join(dir, STORE_FILE);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new StoreStartupError(
      `DATA_DIR ${dir} cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'}); ` +
        'point DATA_DIR at a writable folder.',
    );
  }
  if (existsSync(path)) {
    const damage = findDamage(path);
    if (damage) {
      const aside = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      moveAside(path, aside);
      throw new StoreStartupError(
        `The embedded store ${path} is damaged (${damage}); it was moved aside to ${aside} and the ` +
          'service stops. Restore a backup as store.db, or move the damaged file out of DATA_DIR to ' +
          'start with an empty store.',
      );
    }
  } else {
    const aside = readdirSync(dir).find(
      (name) => name.startsWith(`${STORE_FILE}.damaged-`) && !/-(wal|shm)$/.test(name),
    );
    if (aside) {
      throw new StoreStartupError(
        `The embedded store ${path} was found damaged and kept aside as ${join(dir, aside)}; the ` +
          'service will not start on an empty store while it is there. Restore a backup as store.db, ' +
          'or move the damaged file out of DATA_DIR to start with an empty store.',
      );
    }
  }
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    let db: DatabaseSync | undefined;
    try {
      db = new (sqlite().DatabaseSync)(path, { timeout: BUSY_TIMEOUT_MS });
      // WAL lets readers run beside the one writer; FULL syncs the log at every commit, so what was
      // acknowledged survives a crash of the process and of the machine.
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = FULL');
      db.exec(SCHEMA);
      return db;
    } catch (error) {
      db?.close();
      // Switching a new file to WAL while another process does the same can answer "locked"
      // without waiting for the busy timeout: try again until it has passed.
      if (isLocked(error) && Date.now() < deadline) {
        sleepSync(OPEN_RETRY_MS);
        continue;
      }
      throw new StoreStartupError(
        `The embedded store ${path} cannot be opened (${(error as Error).message}); ` +
          'check that DATA_DIR is a writable folder.',
      );
    }
  }
}

/** SQLITE_BUSY or SQLITE_LOCKED (another connection holds the lock). */
function isLocked(error: unknown): boolean {
  const code = (error as { errcode?: unknown }).errcode;
  return code === 5 || code === 6;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Reads the whole file read-only: SQLite's structural check, then every row's checksum. Values
 * are read as their stored UTF-8 bytes (CAST AS BLOB), which is what the checksum of a string
 * covers, so no text is decoded only to be encoded again (20 MB of chunks: 140 -> 35 ms).
 */
function findDamage(path: string): string | undefined {
  let db: DatabaseSync | undefined;
  try {
    db = new (sqlite().DatabaseSync)(path, { readOnly: true, timeout: BUSY_TIMEOUT_MS });
    const problems = db.prepare('PRAGMA quick_check(3)').all() as { quick_check: string }[];
    const first = problems[0]?.quick_check;
    if (first !== 'ok') return `quick_check: ${first ?? 'no answer'}`;
    const tables = new Set(
      (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    const checks: [string, string, (row: Record<string, unknown>) => number][] = [
      [
        'entries',
        'SELECT key, type, CAST(value AS BLOB) AS value, head, size, expires_at, crc FROM entries',
        (row) =>
          entryCrc(
            row.key as string,
            row.type as string,
            row.value as string | Uint8Array | null,
            row.head as number,
            row.size as number,
            row.expires_at as number | null,
          ),
      ],
      [
        'list_items',
        'SELECT key, pos, CAST(value AS BLOB) AS value, crc FROM list_items',
        (row) => itemCrc(row.key as string, row.pos as number, row.value as Uint8Array),
      ],
      [
        'hash_fields',
        'SELECT key, field, CAST(value AS BLOB) AS value, crc FROM hash_fields',
        (row) => fieldCrc(row.key as string, row.field as string, row.value as Uint8Array),
      ],
      [
        'set_members',
        'SELECT key, member, crc FROM set_members',
        (row) => fieldCrc(row.key as string, row.member as string, ''),
      ],
    ];
    for (const [table, query, expected] of checks) {
      if (!tables.has(table)) continue;
      for (const row of db.prepare(query).iterate() as Iterable<Record<string, unknown>>) {
        if (expected(row) !== row.crc)
          return `a row of ${table} fails its checksum (key ${String(row.key).slice(0, 80)})`;
      }
    }
    return undefined;
  } catch (error) {
    if (isDamageError(error)) return (error as Error).message;
    throw new StoreStartupError(
      `The embedded store ${path} cannot be read (${(error as Error).message}); check its permissions and DATA_DIR.`,
    );
  } finally {
    try {
      db?.close();
    } catch {
      // closing a connection to a damaged file may fail too; the file is left as it is
    }
  }
}

/** Renames the damaged file and its write-ahead log, so nothing writes over them. */
function moveAside(path: string, aside: string): void {
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${aside}${suffix}`);
  }
  renameSync(path, aside);
}
