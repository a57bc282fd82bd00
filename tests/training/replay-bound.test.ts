import { describe, expect, it } from 'vitest';
import { createEmbeddedStore, type Store } from '../../lib/store/index.js';
import { createModelKeeper, trainingKeys } from '../../lib/training/index.js';
import { ReplayTail, snapshotDue } from '../../lib/training/snapshot-policy.js';
import { corpusLines } from '../lm/corpus.js';
import { redisServices } from '../support/services.js';

const lines = corpusLines('kjv.raw.txt');

/** Consecutive verses of the KJV, about `bytes` long, from verse `from`. */
function verses(from: number, bytes: number): string {
  const taken: string[] = [];
  let length = 0;
  for (let i = from; length < bytes; i++) {
    taken.push(lines[i % lines.length]!);
    length += lines[i % lines.length]!.length + 1;
  }
  return taken.join('\n');
}

/** The store, with every list range it is asked for remembered (what a cold instance reads). */
function recordingRanges(store: Store): { store: Store; ranges: [number, number][] } {
  const ranges: [number, number][] = [];
  const recorded: Store = Object.create(store);
  recorded.lrange = (key, start, stop) => {
    if (key === trainingKeys.chunks) ranges.push([start, stop]);
    return store.lrange(key, start, stop);
  };
  return { store: recorded, ranges };
}

async function snapshotChunks(store: Store): Promise<number> {
  return Number((await store.get(trainingKeys.snapshotChunks)) ?? 0);
}

describe('snapshots by replay cost', () => {
  it('is due when the tail passes either bound, and not for an empty tail', () => {
    const policy = { everyChunks: 3, everyBytes: 1000 };
    expect(snapshotDue({ chunks: 0, bytes: 0 }, policy)).toBe(false);
    expect(snapshotDue({ chunks: 2, bytes: 999 }, policy)).toBe(false);
    expect(snapshotDue({ chunks: 1, bytes: 1000 }, policy)).toBe(true);
    expect(snapshotDue({ chunks: 3, bytes: 10 }, policy)).toBe(true);
    expect(snapshotDue(undefined, policy)).toBe(true);
  });

  it('counts the UTF-8 bytes of the chunks after any snapshot since it started counting', () => {
    const tail = new ReplayTail();
    tail.restart(4);
    for (const text of ['abc', 'é', 'hello']) tail.applied(text);
    expect(tail.last).toBe(7);
    expect(tail.after(4)).toEqual({ chunks: 3, bytes: 10 });
    expect(tail.after(5)).toEqual({ chunks: 2, bytes: 7 });
    expect(tail.after(7)).toEqual({ chunks: 0, bytes: 0 });
    expect(tail.after(3)).toBeUndefined();
  });

  it('writes a snapshot once the text after the last one passes the byte bound, whatever the part sizes', async () => {
    const store = createEmbeddedStore();
    const keeper = createModelKeeper(store, { order: 3, snapshotEvery: 1000, snapshotBytes: 10_000 });
    const sizes = [3000, 4000, 2000, 12_000, 500, 500, 9500, 200];
    const covered: number[] = [];
    let from = 0;
    for (const size of sizes) {
      await keeper.train(verses(from, size));
      from += 200;
      await keeper.idle();
      covered.push(await snapshotChunks(store));
    }
    // 3000+4000+2000 stay under 10 000; the 12 000 part passes it; 500+500+9500 pass it again.
    expect(covered).toEqual([0, 0, 0, 4, 4, 4, 7, 7]);
  });

  it('writes one after the chunk bound when that comes first', async () => {
    const store = createEmbeddedStore();
    const keeper = createModelKeeper(store, { order: 3, snapshotEvery: 3, snapshotBytes: 1_000_000 });
    for (let i = 0; i < 7; i++) {
      await keeper.train(verses(i * 10, 300));
      await keeper.idle();
    }
    expect(await snapshotChunks(store)).toBe(6);
  });

  it('answers train before the snapshot is written, and the snapshot covers what was trained', async () => {
    const store = createEmbeddedStore();
    const keeper = createModelKeeper(store, { order: 3, snapshotEvery: 1000, snapshotBytes: 1000 });
    await keeper.train(verses(0, 2000));
    expect(await snapshotChunks(store)).toBe(0);
    await keeper.idle();
    expect(await snapshotChunks(store)).toBe(1);
  });

  it('however fast parts arrive, the tail after the stored snapshot stays under the bound and one part', async () => {
    const bound = 10_000;
    const store = createEmbeddedStore();
    const keeper = createModelKeeper(store, { order: 3, snapshotEvery: 1000, snapshotBytes: bound });
    const sizes = [4000, 8000, 3000, 9000, 2000, 7000, 6000, 12_000, 1000];
    const sent: number[] = [];
    for (const [i, size] of sizes.entries()) {
      const text = verses(i * 150, size);
      sent.push(Buffer.byteLength(text));
      await keeper.train(text);
      const covered = await snapshotChunks(store);
      const tail = sent.slice(covered).reduce((sum, bytes) => sum + bytes, 0);
      expect(tail, `after part ${i + 1}`).toBeLessThan(bound + sent[i]!);
    }
    await keeper.idle();
    expect(await snapshotChunks(store)).toBeGreaterThanOrEqual(7);
  });

  it('a cold instance on the real Redis replays no more than the byte bound of text', async () => {
    const bound = 20_000;
    const { store } = await redisServices();
    const warm = createModelKeeper(store, { order: 3, snapshotEvery: 1000, snapshotBytes: bound });
    // Parts of very different sizes, as users send them.
    const sizes = [700, 15_000, 300, 4000, 26_000, 1200, 800, 9000, 500, 6000, 3000];
    let from = 0;
    for (const size of sizes) {
      await warm.train(verses(from, size));
      from += 150;
      await warm.idle();
    }
    const covered = await snapshotChunks(store);
    expect(covered).toBeGreaterThan(0);
    const { store: watched, ranges } = recordingRanges(store);
    const cold = createModelKeeper(watched, { order: 3, snapshotEvery: 1000, snapshotBytes: bound });
    const knowledge = await cold.knowledge();
    const replayed = new Set<number>();
    for (const [start, stop] of ranges) for (let i = start; i <= stop; i++) replayed.add(i);
    expect(Math.min(...replayed)).toBeGreaterThanOrEqual(covered);
    const chunks = await store.lrange(trainingKeys.chunks, 0, -1);
    const replayedBytes = [...replayed]
      .filter((i) => i < chunks.length)
      .reduce((sum, i) => sum + Buffer.byteLength(chunks[i]!), 0);
    expect(replayedBytes).toBeLessThan(bound);
    // And it holds what the instance that trained holds.
    expect(knowledge.passages.size).toBe(warm.cachedKnowledge().passages.size);
    expect(knowledge.model.vocabSize).toBe(warm.cached().vocabSize);
  });

  it('a cold instance that replayed past the bound (the writer died) writes the snapshot itself', async () => {
    const store = createEmbeddedStore();
    const lazy = createModelKeeper(store, { order: 3, snapshotEvery: 1000, snapshotBytes: 1_000_000 });
    for (let i = 0; i < 4; i++) await lazy.train(verses(i * 100, 3000));
    await lazy.idle();
    expect(await snapshotChunks(store)).toBe(0);
    const cold = createModelKeeper(store, { order: 3, snapshotEvery: 1000, snapshotBytes: 5000 });
    await cold.knowledge();
    await cold.idle();
    expect(await snapshotChunks(store)).toBe(4);
  });
});
