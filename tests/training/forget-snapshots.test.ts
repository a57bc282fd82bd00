import { describe, expect, it } from 'vitest';
import type { NgramModel } from '../../lib/lm/index.js';
import type { Store } from '../../lib/store/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import {
  createModelKeeper,
  type ModelKeeper,
  trainDocument,
  trainingKeys,
} from '../../lib/training/index.js';
import { redisDatabase } from '../support/redis.js';

const TEXTS: Record<string, string> = {
  one: 'The first document teaches the word aardvark and the port 7311.',
  two: 'The second document teaches the quokka relay and its retries.',
  three: 'Q: What is the narwhal index?\nA: The narwhal index is a compact table.',
  four: 'The fourth document teaches the okapi gateway.',
};

const keeperOn = (store: Store, snapshotEvery = 1) =>
  createModelKeeper(store, { order: 3, snapshotEvery, settleAfterMs: 10 });

async function teach(keeper: ModelKeeper, store: Store, id: string, text = TEXTS[id]!) {
  const { createHash } = await import('node:crypto');
  return trainDocument(keeper, store, {
    document: { format: id === 'three' ? 'dialogue' : 'text', documentId: id, text },
    sha256: createHash('sha256').update(text).digest('hex'),
    bytes: Buffer.byteLength(text),
  });
}

const arpa = async (keeper: ModelKeeper) => ((await keeper.current()) as NgramModel).toArpa();

describe.each([
  { name: 'embedded', store: async () => createEmbeddedStore() },
  { name: 'Redis', store: async () => (await redisDatabase()).store },
])('forgetting and snapshots ($name)', ({ store: makeStore }) => {
  it('a cold instance from a snapshot written after a delete holds what the rest teaches, dialogue included', async () => {
    const store = await makeStore();
    const warm = keeperOn(store);
    for (const id of ['one', 'two', 'three']) await teach(warm, store, id);
    const doc = await warm.document('three');
    await warm.forget([doc!]);
    await teach(warm, store, 'four');
    await warm.idle();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await warm.idle();
    expect(Number(await store.get(trainingKeys.snapshotChunks))).toBeGreaterThan(3);

    const cold = keeperOn(store);
    const knowledge = await cold.knowledge();
    expect(knowledge.dialogue).toEqual([]);
    expect(knowledge.passages.allTexts().join(' ')).not.toContain('narwhal');

    const freshStore = await makeStore();
    const fresh = keeperOn(freshStore);
    for (const id of ['one', 'two', 'four']) await teach(fresh, freshStore, id);
    expect(await arpa(cold)).toBe(await arpa(warm));
    expect(await arpa(cold)).toBe(await arpa(fresh));
  });

  it('after a forget, another instance reads the exact vocabulary size in one round trip, until more is trained', async () => {
    const store = await makeStore();
    const warm = keeperOn(store, 1000);
    for (const id of ['one', 'two', 'four']) await teach(warm, store, id);
    await warm.forget([(await warm.document('two'))!]);
    const exact = (await warm.current()).vocabSize;
    const other = keeperOn(store, 1000);
    expect(await other.vocabSize()).toBe(exact);
    expect(other.cached().vocabSize).toBe(0);
    await teach(warm, store, 'three');
    expect(await other.vocabSize()).toBe((await warm.current()).vocabSize);
    // A train on another instance without a measurement: the size comes from catching the model up.
    await store.del(trainingKeys.vocabularyAt);
    expect(await other.vocabSize()).toBe((await warm.current()).vocabSize);
    expect(other.cached().vocabSize).toBeGreaterThan(0);
  });

  it('a cold instance from a snapshot written before a delete rebuilds: equal to a fresh store trained on the rest', async () => {
    const store = await makeStore();
    const warm = keeperOn(store, 2);
    for (const id of ['one', 'two', 'three', 'four']) await teach(warm, store, id);
    // Training goes quiet 10 ms after the last chunk, and the instance that trained then writes a
    // snapshot of the whole tail: wait for that one (bounded), so that no write of the warm
    // instance lands after the snapshot is read below (it did, now and then, on Redis).
    for (let wait = 0; wait < 250 && Number(await store.get(trainingKeys.snapshotChunks)) < 4; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await warm.idle();
    const covered = Number(await store.get(trainingKeys.snapshotChunks));
    expect(covered).toBe(4);
    expect(covered).toBeGreaterThan(0);
    // Delete through another keeper that writes no snapshot of its own before the cold start.
    const deleter = createModelKeeper(store, { order: 3, snapshotEvery: 1000, settleAfterMs: 60_000 });
    await deleter.forget([(await deleter.document('one'))!]);
    expect(Number(await store.get(trainingKeys.snapshotChunks))).toBe(covered);

    const cold = keeperOn(store, 1000);
    const freshStore = await makeStore();
    const fresh = keeperOn(freshStore, 1000);
    for (const id of ['two', 'three', 'four']) await teach(fresh, freshStore, id);
    expect(await arpa(cold)).toBe(await arpa(fresh));
    expect((await cold.knowledge()).passages.allTexts()).toEqual(
      (await fresh.knowledge()).passages.allTexts(),
    );
    expect((await cold.knowledge()).dialogue).toEqual((await fresh.knowledge()).dialogue);
    expect(await cold.exportCorpus()).toBe(await fresh.exportCorpus());
  });
});
