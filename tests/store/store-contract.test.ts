import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedStore, namespacedStore, type Store } from '../../lib/store/index.js';
import { redisDatabase } from '../support/redis.js';

const backends: [string, () => Promise<Store>][] = [
  ['embedded', async () => createEmbeddedStore()],
  ['upstash (real Redis through the REST bridge)', async () => (await redisDatabase()).store],
  ['embedded under a namespace', async () => namespacedStore(createEmbeddedStore(), 'preview:contract')],
  [
    'upstash under a namespace',
    async () => namespacedStore((await redisDatabase()).store, 'preview:contract'),
  ],
];

describe.each(backends)('Store contract on %s', (_name, makeStore) => {
  let store: Store;
  beforeEach(async () => {
    store = await makeStore();
  });

  it('sets and gets strings, including unicode and JSON-looking text', async () => {
    expect(await store.get('missing')).toBeNull();
    expect(await store.set('a', 'héllo ✓')).toBe(true);
    expect(await store.get('a')).toBe('héllo ✓');
    await store.set('n', '123');
    expect(await store.get('n')).toBe('123');
    await store.set('j', '{"x":1}');
    expect(await store.get('j')).toBe('{"x":1}');
  });

  it('honours ifAbsent and deletes keys', async () => {
    expect(await store.set('k', '1', { ifAbsent: true })).toBe(true);
    expect(await store.set('k', '2', { ifAbsent: true })).toBe(false);
    expect(await store.get('k')).toBe('1');
    expect(await store.del('k', 'nothing')).toBe(1);
    expect(await store.get('k')).toBeNull();
  });

  it('counts with an expiry set only on the first increment', async () => {
    expect(await store.incr('c', 100)).toBe(1);
    expect(await store.incr('c', 5)).toBe(2);
    const ttl = await store.ttl('c');
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(100);
    expect(await store.decr('c')).toBe(1);
    expect(await store.ttl('never')).toBe(-2);
    await store.set('p', 'x');
    expect(await store.ttl('p')).toBe(-1);
  });

  it('keeps lists in order with ranges and trims', async () => {
    expect(await store.rpush('l', 'a', 'b')).toBe(2);
    expect(await store.rpush('l', 'c')).toBe(3);
    expect(await store.lrange('l', 0, -1)).toEqual(['a', 'b', 'c']);
    expect(await store.lrange('l', -2, -1)).toEqual(['b', 'c']);
    expect(await store.lrange('l', 5, 10)).toEqual([]);
    expect(await store.llen('l')).toBe(3);
    await store.ltrim('l', -2, -1);
    expect(await store.lrange('l', 0, -1)).toEqual(['b', 'c']);
    expect(await store.lrange('none', 0, -1)).toEqual([]);
  });

  it('keeps small hashes', async () => {
    await store.hset('h', { a: '1', b: 2 });
    expect(await store.hincrby('h', 'b', 3)).toBe(5);
    expect(await store.hgetall('h')).toEqual({ a: '1', b: '5' });
    expect(await store.hgetall('none')).toEqual({});
    expect(await store.hget('h', 'a')).toBe('1');
    expect(await store.hget('h', 'missing')).toBeNull();
    expect(await store.hget('none', 'a')).toBeNull();
    expect(await store.hdel('h', 'a', 'missing')).toBe(1);
    expect(await store.hgetall('h')).toEqual({ b: '5' });
    expect(await store.hdel('none', 'a')).toBe(0);
    const [field, removed] = await store.batch().hget('h', 'b').hdel('h', 'b').exec();
    expect([field, removed]).toEqual(['5', 1]);
    expect(await store.hgetall('h')).toEqual({});
  });

  it('writes many hash fields at once and overwrites the ones it names', async () => {
    const fields = Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`f${i}`, `v${i}`]));
    await store.hset('wide', fields);
    await store.hset('wide', { f3: 'again', f18: 18, extra: 'x' });
    expect(await store.hgetall('wide')).toEqual({ ...fields, f3: 'again', f18: '18', extra: 'x' });
    await store.expire('wide', 60);
    expect(await store.ttl('wide')).toBeGreaterThan(0);
    expect(await store.hgetall('wide')).toEqual({ ...fields, f3: 'again', f18: '18', extra: 'x' });
  });

  it('starts a key of another kind afresh once the old one expired', async () => {
    await store.set('kind', 'text', { ttlSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await store.rpush('kind', 'a', 'b')).toBe(2);
    expect(await store.lrange('kind', 0, -1)).toEqual(['a', 'b']);
  });

  it('keeps sets and counts their members', async () => {
    expect(await store.sadd('v', 'a', 'b', 'a')).toBe(2);
    expect(await store.sadd('v', 'b', 'c')).toBe(1);
    expect(await store.scard('v')).toBe(3);
    expect(await store.scard('none')).toBe(0);
    expect(await store.batch().sadd('v', 'd').scard('v').exec()).toEqual([1, 4]);
  });

  it('stores binary values of any size byte for byte', async () => {
    const small = new Uint8Array([0, 1, 2, 255, 254, 0]);
    await store.setBlob('b', small);
    expect(await store.getBlob('b')).toEqual(small);
    const large = new Uint8Array(1_300_000);
    for (let index = 0; index < large.length; index++) large[index] = (index * 31 + 7) & 255;
    await store.setBlob('b', large, 3600);
    const back = await store.getBlob('b');
    expect(back?.byteLength).toBe(large.byteLength);
    expect(Buffer.compare(Buffer.from(back!), Buffer.from(large))).toBe(0);
    await store.delBlob('b');
    expect(await store.getBlob('b')).toBeNull();
  });

  it('runs a batch in one call with results in order', async () => {
    const results = await store
      .batch()
      .incr('s:count', 60)
      .rpush('s:turns', 'one', 'two')
      .lrange('s:turns', 0, -1)
      .get('missing')
      .hincrby('stats', 'messages', 1)
      .exec();
    expect(results).toEqual([1, 2, ['one', 'two'], null, 1]);
    expect(await store.ttl('s:count')).toBeGreaterThan(0);
  });

  it('counts and deletes keys by prefix', async () => {
    await store.set('session:a:count', '1');
    await store.set('session:b:count', '1');
    await store.set('other', '1');
    expect(await store.countKeys('session:')).toBe(2);
    expect(await store.deleteByPrefix('session:')).toBe(2);
    expect(await store.countKeys('session:')).toBe(0);
    expect(await store.get('other')).toBe('1');
  });

  it('lists keys by prefix with the bytes of their names and contents, whatever their type', async () => {
    await store.set('size:string', 'abcd');
    await store.rpush('size:list', 'ab', 'cde');
    await store.hset('size:hash', { f: 'xyz' });
    await store.sadd('size:set', 'm1', 'm22');
    await store.set('other', 'x');
    const sizes = await store.keySizes('size:');
    expect(sizes.map((size) => size.key)).toEqual(['size:hash', 'size:list', 'size:set', 'size:string']);
    // Content bytes, plus the name as stored (a namespaced store's prefix included, the same for all).
    const content = [4, 5, 5, 4];
    const overhead = sizes.map((size, index) => size.bytes - size.key.length - content[index]!);
    expect(new Set(overhead).size).toBe(1);
    expect(overhead[0]).toBeGreaterThanOrEqual(0);
    expect(overhead[0]).toBeLessThan(20);
    await store.setBlob('size:blob', new Uint8Array(3000));
    const blob = (await store.keySizes('size:blob')).reduce((total, size) => total + size.bytes, 0);
    expect(blob).toBeGreaterThanOrEqual(3000);
  });

  it('increments atomically under concurrency', async () => {
    const values = await Promise.all(Array.from({ length: 30 }, () => store.incr('race')));
    expect(new Set(values).size).toBe(30);
    expect(Math.max(...values)).toBe(30);
  });
});

describe('Embedded store persistence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'embedded-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps what it stored across restarts, expiries included', async () => {
    let time = 1_000_000;
    const first = createEmbeddedStore({ dataDir: dir, now: () => time });
    await first.set('kept', 'yes');
    await first.rpush('list', 'a', 'b');
    await first.rpush('list', 'c');
    // Text beyond ASCII: the start-up check reads values as their UTF-8 bytes.
    await first.rpush('unicode', 'Café — 3 €', '日本語のテキスト', 'emoji 🙂');
    await first.hset('h', { x: '1', y: 'naïve façade' });
    await first.set('greeting', 'Grüß Gott');
    await first.setBlob('blob', new Uint8Array([9, 8, 7]));
    await first.set('short', 'gone soon', { ttlSeconds: 10 });
    await first.sadd('words', 'x', 'y');
    await first.incr('counter');
    await first.del('counter');
    const second = createEmbeddedStore({ dataDir: dir, now: () => time });
    expect(await second.get('kept')).toBe('yes');
    expect(await second.lrange('list', 0, -1)).toEqual(['a', 'b', 'c']);
    expect(await second.hgetall('h')).toEqual({ x: '1', y: 'naïve façade' });
    expect(await second.lrange('unicode', 0, -1)).toEqual(['Café — 3 €', '日本語のテキスト', 'emoji 🙂']);
    expect(await second.get('greeting')).toBe('Grüß Gott');
    expect(await second.getBlob('blob')).toEqual(new Uint8Array([9, 8, 7]));
    expect(await second.get('short')).toBe('gone soon');
    expect(await second.get('counter')).toBeNull();
    expect(await second.scard('words')).toBe(2);
    time += 11_000;
    const third = createEmbeddedStore({ dataDir: dir, now: () => time });
    expect(await third.get('short')).toBeNull();
  });
});
