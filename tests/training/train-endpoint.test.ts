import { describe, expect, it } from 'vitest';
import { healthHandlers } from '../../lib/health/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { createModelKeeper, trainingKeys } from '../../lib/training/index.js';
import { postJson, redisServices } from '../support/services.js';

const URL = 'http://127.0.0.1/api/train';

describe('POST /api/train', () => {
  it('learns the text and reports tokens and the vocabulary size, which health agrees with', async () => {
    const services = await redisServices();
    const train = endpoint(trainHandlers(() => services));
    const response = await train.fetch(
      postJson(URL, { text: 'In the beginning God created the heaven and the earth.' }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ ok: true, tokens: 11, vocabSize: 9, status: 'trained' });
    expect(body.documentId).toMatch(/^text-[0-9a-f]{16}$/);
    expect(response.headers.get('ratelimit-limit')).toBe('60');
    const health = await endpoint(healthHandlers(() => services)).fetch(
      new Request('http://127.0.0.1/api/health'),
    );
    expect((await health.json()).vocabSize).toBe(9);
  });

  it('rejects a missing field, a non-string, empty and whitespace text with 400', async () => {
    const services = await redisServices();
    const train = endpoint(trainHandlers(() => services));
    for (const body of [{}, { text: 42 }, { text: null }, { text: '' }, { text: ' \n\t ' }, [], 'null']) {
      const response = await train.fetch(postJson(URL, body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await response.json();
      expect(error.code).toBe('validation_failed');
      expect(typeof error.error).toBe('string');
    }
    expect(await services.store.llen(trainingKeys.chunks)).toBe(0);
  });

  it('rejects malformed JSON with 400 and a non-JSON body with 415', async () => {
    const services = await redisServices();
    const train = endpoint(trainHandlers(() => services));
    expect((await train.fetch(postJson(URL, '{"text": "unterminated'))).status).toBe(400);
    const form = new Request(URL, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    expect((await train.fetch(form)).status).toBe(415);
  });

  it('rejects text over 1 MB with 413 and stores nothing', async () => {
    const services = await redisServices();
    const train = endpoint(trainHandlers(() => services));
    const response = await train.fetch(postJson(URL, { text: 'word '.repeat(210_000) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'payload_too_large' });
    expect(await services.store.llen(trainingKeys.chunks)).toBe(0);
  });

  it('lands two concurrent trains, both of them, on the real Redis', async () => {
    const services = await redisServices();
    const train = endpoint(trainHandlers(() => services));
    const [a, b] = await Promise.all([
      train.fetch(postJson(URL, { text: 'alpha beta gamma' })),
      train.fetch(postJson(URL, { text: 'delta epsilon zeta' })),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await services.store.llen(trainingKeys.chunks)).toBe(2);
    const fresh = createModelKeeper(services.store, { order: 4, snapshotEvery: 100 });
    expect((await fresh.current()).vocabSize).toBe(6);
    expect(await services.model.vocabSize()).toBe(6);
  });

  it('is rate limited per address (behind a proxy that sets X-Real-IP) with 429 and Retry-After', async () => {
    const services = await redisServices({
      RATE_LIMIT_REQUESTS: '2',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      TRUST_PROXY_HEADER: 'x-real-ip',
    });
    const train = endpoint(trainHandlers(() => services));
    const statuses = [];
    let last: Response | undefined;
    for (let index = 0; index < 3; index++) {
      last = await train.fetch(postJson(URL, { text: `text number ${index}` }));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last!.json()).toMatchObject({ code: 'rate_limited' });
    const other = await train.fetch(
      postJson(URL, { text: 'from elsewhere' }, { 'x-real-ip': '198.51.100.4' }),
    );
    expect(other.status).toBe(200);
  });
});

describe('the model in a serverless world', () => {
  it('a cold instance loads the snapshot and replays only the tail', async () => {
    const services = await redisServices();
    const warm = createModelKeeper(services.store, { order: 3, snapshotEvery: 2 });
    for (const text of ['the cat sat on the mat', 'the dog sat on the log', 'a bird flew over the house']) {
      await warm.train(text);
      await warm.idle();
    }
    expect(await services.store.get(trainingKeys.snapshotChunks)).toBe('2');
    const cold = createModelKeeper(services.store, { order: 3, snapshotEvery: 100 });
    const model = await cold.current();
    const warmModel = await warm.current();
    expect(model.vocabSize).toBe(warmModel.vocabSize);
    expect(model.tokenCount).toBe(warmModel.tokenCount);
  });

  it('a cold instance without a snapshot replays a long tail page by page', async () => {
    const services = await redisServices();
    const warm = createModelKeeper(services.store, { order: 3, snapshotEvery: 1000 });
    for (let index = 0; index < 20; index++) await warm.train(`word${index} shared text`);
    const cold = createModelKeeper(services.store, { order: 3, snapshotEvery: 1000 });
    const model = await cold.current();
    expect(model.vocabSize).toBe(22);
    expect(model.tokenCount).toBe(60);
  });

  it('another instance sees new chunks and a reset', async () => {
    const services = await redisServices();
    const one = createModelKeeper(services.store, { order: 3, snapshotEvery: 100 });
    const two = createModelKeeper(services.store, { order: 3, snapshotEvery: 100 });
    await one.train('light shines in darkness');
    expect((await two.current()).vocabSize).toBe(4);
    await one.reset();
    expect((await two.current()).vocabSize).toBe(0);
    expect(await two.vocabSize()).toBe(0);
    await one.train('water');
    expect((await two.current()).vocabSize).toBe(1);
  });
});
