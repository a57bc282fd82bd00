import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parseConfig } from '../../lib/config/index.js';
import { decodeChunk } from '../../lib/documents/index.js';
import { endpoint } from '../../lib/http/index.js';
import { createServices, type Services } from '../../lib/services/index.js';
import { createEmbeddedStore, STORE_FILE } from '../../lib/store/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { trainingKeys } from '../../lib/training/index.js';
import { postJson, redisServices } from '../support/services.js';

const URL = 'http://127.0.0.1/api/train';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Everything a train writes, to compare before and after. */
async function trace(services: Services) {
  const { store } = services;
  return {
    chunks: (await store.lrange(trainingKeys.chunks, 0, -1)).map((chunk) => decodeChunk(chunk).text),
    vocabulary: await store.scard(trainingKeys.vocabulary),
    stats: await store.hgetall(trainingKeys.stats),
    keys: await store.countKeys('idempotency:'),
  };
}

function trainer(services: Services) {
  const train = endpoint(trainHandlers(() => services));
  return (text: string, key?: string) =>
    train.fetch(postJson(URL, { text }, key === undefined ? {} : { 'Idempotency-Key': key }));
}

const big = { RATE_LIMIT_REQUESTS: '1000' };

describe('A train whose write fails half-way', () => {
  it('on SQLite leaves no trace, and its retry with the same Idempotency-Key trains once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'train-fault-'));
    dirs.push(dir);
    const services = createServices(parseConfig(big), { store: createEmbeddedStore({ dataDir: dir }) });
    const train = trainer(services);
    expect((await train('The first text is learned before the fault.')).status).toBe(200);
    const before = await trace(services);

    // A real fault inside the transaction, from another connection: the totals update fails after
    // the chunk and the vocabulary were written.
    const saboteur = new DatabaseSync(join(dir, STORE_FILE));
    saboteur.exec(`CREATE TRIGGER fail_totals BEFORE UPDATE ON hash_fields WHEN NEW.key = '${trainingKeys.stats}'
      BEGIN SELECT RAISE(ABORT, 'injected fault: disk full'); END`);
    const failed = await train('A second text with brand new words like zebra and quokka.', 'retry-key-1');
    expect([500, 503]).toContain(failed.status);
    expect(await trace(services)).toEqual(before);

    saboteur.exec('DROP TRIGGER fail_totals');
    saboteur.close();
    const retried = await train('A second text with brand new words like zebra and quokka.', 'retry-key-1');
    expect(retried.status).toBe(200);
    const answer = await retried.json();
    const replayed = await train('A second text with brand new words like zebra and quokka.', 'retry-key-1');
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(answer);
    const after = await trace(services);
    expect(after.chunks).toEqual([
      ...before.chunks,
      'A second text with brand new words like zebra and quokka.',
    ]);
    expect(after.vocabulary).toBeGreaterThan(before.vocabulary);
    await services.store.close();
  });

  it('on Redis (transaction cut off mid-way) leaves no trace, and its retry trains once', async () => {
    const services = await redisServices(big);
    const train = trainer(services);
    expect((await train('The first text is learned before the fault.')).status).toBe(200);
    const before = await trace(services);

    // The bridge queues 3 of the train's commands inside MULTI, then the connection dies (on the
    // client's own retry too).
    const bridge = inject('upstashBridge');
    const cut = (after: number | null) =>
      fetch(`${bridge.url}/__test/abort-transactions`, {
        method: 'POST',
        headers: { 'x-bridge-secret': bridge.adminSecret },
        body: JSON.stringify({ token: services.redisToken, after }),
      });
    expect((await cut(3)).status).toBe(200);
    const failed = await train('A second text with brand new words like zebra and quokka.', 'retry-key-2');
    expect([500, 503]).toContain(failed.status);
    expect(await trace(services)).toEqual(before);
    expect((await cut(null)).status).toBe(200);

    const retried = await train('A second text with brand new words like zebra and quokka.', 'retry-key-2');
    expect(retried.status).toBe(200);
    const replayed = await train('A second text with brand new words like zebra and quokka.', 'retry-key-2');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(await retried.json());
    expect((await trace(services)).chunks).toHaveLength(before.chunks.length + 1);
  });
});

describe.each([
  ['SQLite', async () => createServices(parseConfig(big), { store: createEmbeddedStore() })],
  ['Redis through the bridge', () => redisServices(big)],
])('Idempotency-Key on %s', (_name, makeServices) => {
  it('answers a retry with the first answer and trains once, even when the retries run at once', async () => {
    const services = await makeServices();
    const train = trainer(services);
    const first = await train('Retried texts are learned once.', 'key-a');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const answer = await first.json();
    expect(answer).toMatchObject({ ok: true, tokens: 6 });
    // more text in between changes the vocabulary; the replay still answers what the first did
    await train('Other words arrive meanwhile.');
    const again = await train('Retried texts are learned once.', 'key-a');
    expect(await again.json()).toEqual(answer);

    const concurrent = await Promise.all(
      Array.from({ length: 8 }, () => train('Eight copies of one request at once.', 'key-b')),
    );
    expect(concurrent.map((response) => response.status)).toEqual(Array(8).fill(200));
    const bodies = await Promise.all(concurrent.map((response) => response.json()));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(
      concurrent.filter((response) => response.headers.get('idempotent-replayed') === null),
    ).toHaveLength(1);

    const chunks = (await services.store.lrange(trainingKeys.chunks, 0, -1)).map(
      (chunk) => decodeChunk(chunk).text,
    );
    expect(chunks.filter((chunk) => chunk === 'Retried texts are learned once.')).toHaveLength(1);
    expect(chunks.filter((chunk) => chunk === 'Eight copies of one request at once.')).toHaveLength(1);
    expect(await services.store.ttl('idempotency:train:key-a')).toBeGreaterThan(23 * 3600);
  });

  it('refuses the same key for a different text with 422 idempotency_conflict, and a malformed key with 400', async () => {
    const services = await makeServices();
    const train = trainer(services);
    expect((await train('One text.', 'key-c')).status).toBe(200);
    const other = await train('Another text.', 'key-c');
    expect(other.status).toBe(422);
    expect((await other.json()).code).toBe('idempotency_conflict');
    for (const key of ['', 'has space', 'x'.repeat(129), 'ünïcode', 'tab\there']) {
      const response = await train('Valid text.', key);
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'validation_failed', field: 'Idempotency-Key' });
    }
    expect((await train('Valid text.', 'x'.repeat(128))).status).toBe(200);
    expect(await services.store.llen(trainingKeys.chunks)).toBe(2);
  });

  it('lands every one of many concurrent trains with keys of their own', async () => {
    const services = await makeServices();
    const train = trainer(services);
    const texts = Array.from({ length: 12 }, (_, index) => `Concurrent text ${index} about topic${index}.`);
    const responses = await Promise.all(texts.map((text, index) => train(text, `own-${index}`)));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(200));
    const stored = await services.store.lrange(trainingKeys.chunks, 0, -1);
    expect(stored.map((chunk) => decodeChunk(chunk).text).sort()).toEqual([...texts].sort());
  });
});
