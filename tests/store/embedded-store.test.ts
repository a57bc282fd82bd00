import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedStore, STORE_FILE, StoreStartupError } from '../../lib/store/index.js';
import { waitForOutput } from '../support/child-output.js';

const root = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-sqlite-'));
  dirs.push(dir);
  return dir;
}

function startChild(dataDir: string, name: string, count: number): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', resolve(root, 'tests/support/store-child.ts'), dataDir, name, String(count)],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

function collect(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  return () => output;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

/** A store file with a corpus-like list (mostly text, as a trained store is) and a few other values. */
async function filledStore(dir: string): Promise<void> {
  const store = createEmbeddedStore({ dataDir: dir });
  for (let index = 0; index < 120; index++) {
    const words = Array.from({ length: 300 }, (_, word) => `word${(index * 7 + word) % 997}`).join(' ');
    await store.rpush('lm:chunks', `Chunk ${index}: ${words}.`);
  }
  await store.sadd('lm:vocab', ...Array.from({ length: 500 }, (_, index) => `w${index}`));
  await store.hset('lm:stats', { tokens: 36000, characters: 250000 });
  await store.close();
}

function asideFiles(dir: string): string[] {
  return readdirSync(dir).filter(
    (name) => name.startsWith(`${STORE_FILE}.damaged-`) && !/-(wal|shm)$/.test(name),
  );
}

function startError(dir: string): unknown {
  try {
    createEmbeddedStore({ dataDir: dir });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('Embedded store on SQLite', () => {
  it('runs a batch as one transaction: an error anywhere keeps none of it', async () => {
    const store = createEmbeddedStore();
    await store.set('text', 'not a number');
    const failing = store
      .batch()
      .rpush('chunks', 'kept only if all lands')
      .sadd('vocab', 'a', 'b')
      .hincrby('stats', 'tokens', 5)
      .incr('text');
    await expect(failing.exec()).rejects.toThrow(/not an integer/);
    expect(await store.llen('chunks')).toBe(0);
    expect(await store.scard('vocab')).toBe(0);
    expect(await store.hgetall('stats')).toEqual({});
    expect(await store.batch().rpush('chunks', 'x').llen('chunks').exec()).toEqual([1, 1]);
  });

  it('commits concurrent writes together, and a failing one is rolled back alone', async () => {
    const dir = freshDir();
    const store = createEmbeddedStore({ dataDir: dir });
    await store.set('text', 'not a number');
    // Issued in one turn of the event loop: committed as one group.
    const results = await Promise.allSettled([
      store.incr('counter'),
      store.rpush('list', 'a', 'b'),
      store.batch().sadd('members', 'x').incr('text').exec(),
      store.hincrby('totals', 'n', 3),
      store.incr('counter'),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : null))).toEqual([
      1,
      2,
      null,
      3,
      2,
    ]);
    // The failed batch left nothing behind; everything acknowledged is on disk for another connection.
    const other = createEmbeddedStore({ dataDir: dir });
    expect(await other.scard('members')).toBe(0);
    expect(await other.get('counter')).toBe('2');
    expect(await other.lrange('list', 0, -1)).toEqual(['a', 'b']);
    expect(await other.hgetall('totals')).toEqual({ n: '3' });
    await other.close();
    await store.close();
  });

  it('keeps a key touched several times in one batch exact, on disk and after a rolled-back batch', async () => {
    const dir = freshDir();
    const store = createEmbeddedStore({ dataDir: dir, now: () => 1_000_000 });
    const turns = Array.from({ length: 6 }, (_, i) => `turn ${i}`);
    // As a chat message's record does: append, trim, expire the same list, then read it back.
    expect(
      await store
        .batch()
        .rpush('turns', ...turns.slice(0, 4))
        .ltrim('turns', -3, -1)
        .rpush('turns', ...turns.slice(4))
        .expire('turns', 60)
        .lrange('turns', 0, -1)
        .hset('record', { question: 'q', reply: 'r' })
        .expire('record', 30)
        .hincrby('stats', 'messages', 1)
        .hincrby('stats', 'messages', 1)
        .exec(),
    ).toEqual([
      4,
      undefined,
      5,
      true,
      ['turn 1', 'turn 2', 'turn 3', 'turn 4', 'turn 5'],
      undefined,
      true,
      1,
      2,
    ]);
    // A batch that fails after touching the same keys leaves them as they were.
    await store.set('text', 'not a number');
    await expect(
      store.batch().rpush('turns', 'lost').ltrim('turns', -1, -1).expire('record', 1).incr('text').exec(),
    ).rejects.toThrow(/not an integer/);
    await store.close();
    // Another connection (which checks every row's checksum on open) sees exactly what was acknowledged.
    const other = createEmbeddedStore({ dataDir: dir, now: () => 1_000_000 });
    expect(await other.lrange('turns', 0, -1)).toEqual(['turn 1', 'turn 2', 'turn 3', 'turn 4', 'turn 5']);
    expect(await other.ttl('turns')).toBe(60);
    expect(await other.ttl('record')).toBe(30);
    expect(await other.hgetall('record')).toEqual({ question: 'q', reply: 'r' });
    expect(await other.hgetall('stats')).toEqual({ messages: '2' });
    expect(asideFiles(dir)).toEqual([]);
    await other.close();
  });

  it('keeps keys that several writes of one group touch exact, around a write that fails', async () => {
    const dir = freshDir();
    const store = createEmbeddedStore({ dataDir: dir, now: () => 5_000_000 });
    await store.set('text', 'not a number');
    // All issued in one turn of the event loop: one group commit.
    const results = await Promise.allSettled([
      store.rpush('day', 'a'),
      store.set('kept', 'v', { ttlSeconds: 30 }),
      store.batch().rpush('day', 'lost').expire('day', 60).del('kept').incr('text').exec(),
      store.rpush('day', 'c'),
      store.countKeys('da'),
      store.batch().expire('kept', 90).lrange('day', 0, -1).exec(),
      store.incr('counter'),
      store.batch().incr('counter').set('fresh', 'x').del('fresh').exec(),
    ]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : 'rejected'))).toEqual([
      1,
      true,
      'rejected',
      2,
      1,
      [true, ['a', 'c']],
      1,
      [2, true, 1],
    ]);
    await store.close();
    const other = createEmbeddedStore({ dataDir: dir, now: () => 5_000_000 });
    expect(await other.lrange('day', 0, -1)).toEqual(['a', 'c']);
    expect(await other.ttl('day')).toBe(-1);
    expect(await other.get('kept')).toBe('v');
    expect(await other.ttl('kept')).toBe(90);
    expect(await other.get('counter')).toBe('2');
    expect(await other.get('fresh')).toBeNull();
    expect(await other.countKeys('')).toBe(4);
    expect(asideFiles(dir)).toEqual([]);
    await other.close();
  });

  it('answers a read after the writes issued before it, even when they were not awaited', async () => {
    const store = createEmbeddedStore();
    const written = store.set('greeting', 'hello');
    const pushed = store.rpush('list', 'one');
    expect(await store.get('greeting')).toBe('hello');
    expect(await store.lrange('list', 0, -1)).toEqual(['one']);
    expect(await written).toBe(true);
    expect(await pushed).toBe(1);
  });

  it('commits what is pending when closed, and refuses writes afterwards', async () => {
    const dir = freshDir();
    const store = createEmbeddedStore({ dataDir: dir });
    const pending = store.set('last', 'written');
    await store.close();
    expect(await pending).toBe(true);
    await expect(store.set('late', 'x')).rejects.toThrow(/closed/);
    const reopened = createEmbeddedStore({ dataDir: dir });
    expect(await reopened.get('last')).toBe('written');
    await reopened.close();
  });

  it('expires keys as Redis does: SET clears a TTL, INCR and RPUSH keep it, an expired key is gone', async () => {
    let time = 5_000_000;
    const store = createEmbeddedStore({ now: () => time });
    await store.set('s', 'v', { ttlSeconds: 10 });
    await store.set('s', 'w');
    expect(await store.ttl('s')).toBe(-1);
    await store.incr('c', 10);
    await store.incr('c', 99);
    await store.rpush('l', 'a');
    expect(await store.expire('l', 20)).toBe(true);
    await store.rpush('l', 'b');
    expect(await store.ttl('c')).toBe(10);
    expect(await store.ttl('l')).toBe(20);
    time += 10_000;
    expect(await store.get('c')).toBeNull();
    expect(await store.ttl('c')).toBe(-2);
    expect(await store.incr('c')).toBe(1);
    expect(await store.ttl('c')).toBe(-1);
    expect(await store.lrange('l', 0, -1)).toEqual(['a', 'b']);
    time += 10_000;
    expect(await store.llen('l')).toBe(0);
    expect(await store.del('l')).toBe(0);
    // an expired list does not leak its items into a new value under the same key
    expect(await store.rpush('l', 'fresh')).toBe(1);
    expect(await store.lrange('l', 0, -1)).toEqual(['fresh']);
    expect(await store.expire('missing', 5)).toBe(false);
  });

  it('refuses to treat a value as the wrong kind, as Redis does', async () => {
    const store = createEmbeddedStore();
    await store.rpush('l', 'a');
    await expect(store.get('l')).rejects.toThrow(/WRONGTYPE/);
    await store.set('l', 'now a string');
    expect(await store.get('l')).toBe('now a string');
    await expect(store.rpush('l', 'b')).rejects.toThrow(/WRONGTYPE/);
    await store.del('l');
    expect(await store.rpush('l', 'c')).toBe(1);
    expect(await store.lrange('l', 0, -1)).toEqual(['c']);
  });

  it('keeps exact counts with two processes writing to one folder at once', async () => {
    const dir = freshDir();
    const children = [startChild(dir, 'one', 150), startChild(dir, 'two', 150)];
    const outputs = children.map(collect);
    expect(await Promise.all(children.map(exitOf))).toEqual([0, 0]);
    for (const output of outputs) expect(output()).toMatch(/ack 150\ndone\n$/);
    const store = createEmbeddedStore({ dataDir: dir });
    expect(await store.get('counter')).toBe('300');
    expect(await store.llen('pushed')).toBe(300);
    expect(await store.scard('members')).toBe(300);
    expect(await store.hgetall('totals')).toEqual({ n: '300' });
    const pushed = await store.lrange('pushed', 0, -1);
    expect(new Set(pushed).size).toBe(300);
    expect(pushed.filter((item) => item.startsWith('one:'))).toEqual(
      Array.from({ length: 150 }, (_, index) => `one:${index}`),
    );
    await store.close();
  }, 150_000);

  it('keeps every acknowledged write when its process is killed with SIGKILL', async () => {
    const dir = freshDir();
    const child = startChild(dir, 'killed', 1_000_000);
    const { output, started } = waitForOutput(child, 'ack 200\n', { name: 'the writer', timeoutMs: 60_000 });
    await started;
    child.kill('SIGKILL');
    await exitOf(child);
    const acknowledged = Math.max(...[...output().matchAll(/ack (\d+)\n/g)].map((match) => Number(match[1])));
    expect(acknowledged).toBeGreaterThanOrEqual(200);
    const store = createEmbeddedStore({ dataDir: dir });
    const pushed = await store.lrange('pushed', 0, -1);
    // every acknowledged batch is there, in order; at most the one in flight came on top
    expect(pushed.slice(0, acknowledged)).toEqual(
      Array.from({ length: acknowledged }, (_, index) => `killed:${index}`),
    );
    expect(pushed.length - acknowledged).toBeLessThanOrEqual(1);
    expect(Number(await store.get('counter'))).toBeGreaterThanOrEqual(acknowledged);
    await store.close();
  }, 90_000);
});

describe('Embedded store damage detection', () => {
  async function damaged(damage: (path: string) => void): Promise<{ dir: string; bytes: Buffer }> {
    const dir = freshDir();
    await filledStore(dir);
    const path = join(dir, STORE_FILE);
    damage(path);
    return { dir, bytes: readFileSync(path) };
  }

  function expectStoppedAndKeptAside(dir: string, bytes: Buffer): void {
    const error = startError(dir);
    expect(error).toBeInstanceOf(StoreStartupError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(join(dir, STORE_FILE));
    expect(message).toMatch(/damaged.*moved aside.*service stops.*Restore a backup/);
    const aside = asideFiles(dir);
    expect(aside).toHaveLength(1);
    expect(message).toContain(aside[0]);
    // kept byte for byte, and no new store took its place
    expect(readFileSync(join(dir, aside[0]!)).equals(bytes)).toBe(true);
    expect(existsSync(join(dir, STORE_FILE))).toBe(false);
    // a second start refuses too, rather than starting on an empty store
    const again = startError(dir);
    expect(again).toBeInstanceOf(StoreStartupError);
    expect((again as Error).message).toMatch(/kept aside.*will not start on an empty store/);
    expect(existsSync(join(dir, STORE_FILE))).toBe(false);
    expect(readFileSync(join(dir, aside[0]!)).equals(bytes)).toBe(true);
  }

  it('detects nine junk bytes in the middle of the file', async () => {
    const { dir, bytes } = await damaged((path) => {
      const file = readFileSync(path);
      file.set(Buffer.from('JUNKJUNK!'), Math.floor(file.length / 2));
      writeFileSync(path, file);
    });
    expectStoppedAndKeptAside(dir, bytes);
  });

  it('detects junk inside a stored text, which SQLite’s own check cannot see, by its checksum', async () => {
    const { dir, bytes } = await damaged((path) => {
      const file = readFileSync(path);
      const at = file.indexOf('Chunk 60: ');
      expect(at).toBeGreaterThan(0);
      file.set(Buffer.from('JUNKJUNK!'), at + 20);
      writeFileSync(path, file);
    });
    expectStoppedAndKeptAside(dir, bytes);
    const error = startError(freshDir());
    expect(error).toBeUndefined();
  });

  it('detects junk over a page header', async () => {
    const { dir, bytes } = await damaged((path) => {
      const file = readFileSync(path);
      const pageSize = file.readUInt16BE(16) === 1 ? 65536 : file.readUInt16BE(16);
      const page = Math.floor(file.length / pageSize / 2);
      file.fill(0xa5, page * pageSize, page * pageSize + 9);
      writeFileSync(path, file);
    });
    expectStoppedAndKeptAside(dir, bytes);
  });

  it('detects a file truncated in the middle', async () => {
    const { dir, bytes } = await damaged((path) =>
      truncateSync(path, Math.floor(readFileSync(path).length / 2)),
    );
    expectStoppedAndKeptAside(dir, bytes);
  });

  it('detects a file that is not a database', async () => {
    const { dir, bytes } = await damaged((path) => writeFileSync(path, 'x'.repeat(10_000)));
    expectStoppedAndKeptAside(dir, bytes);
  });

  it('starts on an intact file with everything in it', async () => {
    const dir = freshDir();
    await filledStore(dir);
    const store = createEmbeddedStore({ dataDir: dir });
    expect(await store.llen('lm:chunks')).toBe(120);
    expect(await store.scard('lm:vocab')).toBe(500);
    expect(asideFiles(dir)).toEqual([]);
    await store.close();
  });
});

describe('Migration of the old append-only file', () => {
  const legacyLines = (expiredAt: number) =>
    [
      { op: 'put', key: 'kept', data: { type: 'string', value: 'yes' } },
      { op: 'rpush', key: 'lm:chunks', values: ['first text', 'second text'] },
      { op: 'rpush', key: 'lm:chunks', values: ['third text'] },
      { op: 'sadd', key: 'lm:vocab', members: ['first', 'text'] },
      { op: 'sadd', key: 'lm:vocab', members: ['second', 'text'] },
      { op: 'put', key: 'lm:stats', data: { type: 'hash', value: { tokens: '6' } } },
      { op: 'put', key: 'blob', data: { type: 'blob', value: Buffer.from([1, 2, 255]).toString('base64') } },
      { op: 'put', key: 'gone', data: { type: 'string', value: 'x' }, expiresAt: expiredAt },
      { op: 'put', key: 'later', data: { type: 'string', value: 'soon' }, expiresAt: 9_999_999_999_999 },
      { op: 'put', key: 'deleted', data: { type: 'string', value: 'x' } },
      { op: 'del', key: 'deleted' },
    ]
      .map((record) => JSON.stringify(record))
      .join('\n');

  it('copies store.aof into SQLite on first start and renames it store.aof.migrated', async () => {
    const dir = freshDir();
    // a torn last line (a crash while appending) is what the old store skipped too
    writeFileSync(join(dir, 'store.aof'), `${legacyLines(1000)}\n{"op":"rpush","key":"lm:ch`);
    const store = createEmbeddedStore({ dataDir: dir });
    expect(await store.get('kept')).toBe('yes');
    expect(await store.lrange('lm:chunks', 0, -1)).toEqual(['first text', 'second text', 'third text']);
    expect(await store.scard('lm:vocab')).toBe(3);
    expect(await store.hgetall('lm:stats')).toEqual({ tokens: '6' });
    expect(await store.getBlob('blob')).toEqual(new Uint8Array([1, 2, 255]));
    expect(await store.get('gone')).toBeNull();
    expect(await store.ttl('later')).toBeGreaterThan(0);
    expect(await store.get('deleted')).toBeNull();
    await store.close();
    expect(existsSync(join(dir, 'store.aof'))).toBe(false);
    expect(existsSync(join(dir, 'store.aof.migrated'))).toBe(true);
    const again = createEmbeddedStore({ dataDir: dir });
    expect(await again.llen('lm:chunks')).toBe(3);
    await again.close();
  });

  it('stops on a damaged line in the middle of store.aof and leaves the file as it was', () => {
    const dir = freshDir();
    const lines = legacyLines(1000).split('\n');
    lines[3] = `${lines[3]!.slice(0, 10)}\u0000\u0000junk`;
    const text = `${lines.join('\n')}\n`;
    writeFileSync(join(dir, 'store.aof'), text);
    const error = startError(dir);
    expect(error).toBeInstanceOf(StoreStartupError);
    expect((error as Error).message).toMatch(/store\.aof is damaged at line 4 of 11/);
    expect(readFileSync(join(dir, 'store.aof'), 'utf8')).toBe(text);
    expect(existsSync(join(dir, 'store.aof.migrated'))).toBe(false);
  });
});
