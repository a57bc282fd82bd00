import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { createModelKeeper, trainingKeys } from '../../lib/training/index.js';
import { redisDatabase } from '../support/redis.js';
import { postJson, redisServices } from '../support/services.js';

const STARTER = [
  'The starter text says what this service is.',
  'The service answers questions from the text it was taught, with the passages it used.',
].join('\n');

describe('the starter text on an empty store', () => {
  it('answers every one of three concurrent first requests from the starter text', async () => {
    const services = await redisServices({ STARTER_TEXT: 'on', TRUST_PROXY_HEADER: 'x-real-ip' });
    const api = endpoint(chatHandlers(() => services));
    const replies = await Promise.all(
      [1, 2, 3].map(async (i) => {
        const request = postJson(
          'http://127.0.0.1/api/chat',
          { message: 'What is apex mode?', sessionId: `first-${i}` },
          { 'x-real-ip': `10.66.0.${i}` },
        );
        return (await api.fetch(request)).json();
      }),
    );
    for (const reply of replies) {
      expect(reply.response).not.toMatch(/I don't know anything yet/);
      expect(reply.sources.length).toBeGreaterThan(0);
    }
    expect((await services.model.stats()).chunks).toBe(1);
  });

  it('makes instances that find the starter claimed by another wait for its chunk', async () => {
    const { store } = await redisDatabase();
    const instances = [1, 2, 3].map(() =>
      createModelKeeper(store, { order: 3, snapshotEvery: 100, starterText: STARTER }),
    );
    const knowledge = await Promise.all(
      instances.flatMap((keeper) => [keeper.knowledge(), keeper.knowledge()]),
    );
    for (const { passages } of knowledge) expect(passages.size).toBeGreaterThan(0);
    expect((await instances[0]!.stats()).chunks).toBe(1);
  });

  it('leaves a store emptied by a reset empty: the starter is taught once per store', async () => {
    const { store } = await redisDatabase();
    await store.set(trainingKeys.starter, String(Date.now() - 3_600_000));
    const keeper = createModelKeeper(store, { order: 3, snapshotEvery: 100, starterText: STARTER });
    const { passages } = await keeper.knowledge();
    expect(passages.size).toBe(0);
    expect((await keeper.stats()).chunks).toBe(0);
  });
});

describe('the starter text after an upgrade', () => {
  const NEWER = [
    'The starter text says what this service is, and how to keep a folder of documents in sync.',
    'The service answers questions from the text it was taught, with the passages it used.',
  ].join('\n');
  const keeperOn = (store: Awaited<ReturnType<typeof redisDatabase>>['store'], starterText: string) =>
    createModelKeeper(store, { order: 3, snapshotEvery: 100, starterText });
  const texts = (passages: { size: number; text(id: number): string }) =>
    Array.from({ length: passages.size }, (_, id) => passages.text(id)).join('\n');

  it('replaces a guide seeded by an earlier release, once, even when instances start together', async () => {
    const { store } = await redisDatabase();
    await keeperOn(store, STARTER).knowledge();
    const instances = [1, 2, 3].map(() => keeperOn(store, NEWER));
    const knowledge = await Promise.all(instances.map((keeper) => keeper.knowledge()));
    const later = await keeperOn(store, NEWER).knowledge();
    for (const { passages } of [...knowledge.slice(0, 1), later]) {
      expect(texts(passages)).toMatch(/keep a folder of documents in sync/);
      expect(texts(passages)).not.toMatch(/what this service is\.$/m);
    }
    const documents = await instances[0]!.documents();
    expect(documents.map((record) => record.id)).toEqual(['starter-guide']);
    // The seeding, the older guide's forgetting and the newer guide: one replace, not three.
    expect((await instances[0]!.stats()).chunks).toBe(3);
  });

  it('leaves the guide out where the owner removed it, and alone where it is the shipped one', async () => {
    const { store } = await redisDatabase();
    const first = keeperOn(store, STARTER);
    await first.knowledge();
    const record = await first.document('starter-guide');
    await first.forget([record!]);
    expect((await keeperOn(store, NEWER).knowledge()).passages.size).toBe(0);

    const other = (await redisDatabase()).store;
    await keeperOn(other, NEWER).knowledge();
    await keeperOn(other, NEWER).knowledge();
    expect((await keeperOn(other, NEWER).stats()).chunks).toBe(1);
  });
});
