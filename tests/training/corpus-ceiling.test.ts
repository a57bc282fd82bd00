import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/config/index.js';
import { endpoint } from '../../lib/http/index.js';
import type { NgramModel } from '../../lib/lm/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import {
  corpusCeilingFor,
  instanceMemoryBytes,
  maxCorpusBytesOf,
  trainingKeys,
} from '../../lib/training/index.js';
import { postJson, redisServices } from '../support/services.js';

const URL = 'http://127.0.0.1/api/train';
const GB = 2 ** 30;

function verse(n: number): string {
  return `Verse ${n}: and the word of the LORD came unto the prophet in the ${n}th year, saying.`;
}

function textOf(bytes: number, from: number): string {
  const lines: string[] = [];
  for (let n = from; lines.join('\n').length < bytes; n++) lines.push(verse(n));
  return lines.join('\n');
}

describe('MAX_CORPUS_BYTES', () => {
  it('refuses a train past the ceiling with 413 and a way out, and nothing of it is learned', async () => {
    const services = await redisServices({ MAX_CORPUS_BYTES: '6000' });
    const train = endpoint(trainHandlers(() => services));
    const first = await train.fetch(postJson(URL, { text: textOf(4000, 0) }));
    expect(first.status).toBe(200);
    const before = {
      chunks: await services.store.llen(trainingKeys.chunks),
      vocabulary: await services.store.scard(trainingKeys.vocabulary),
      totals: await services.store.hgetall(trainingKeys.stats),
      vocabSize: (await services.model.current()).vocabSize,
    };

    const refused = await train.fetch(
      postJson(URL, { text: `${textOf(3000, 1000)}\nMelchizedek` }, { 'Idempotency-Key': 'too-much-1' }),
    );
    expect(refused.status).toBe(413);
    const body = await refused.json();
    expect(body).toMatchObject({ code: 'payload_too_large', limitBytes: 6000 });
    expect(body.corpusBytes).toBe(Number(before.totals.bytes));
    expect(body.error).toMatch(/MAX_CORPUS_BYTES/);
    expect(body.error).toMatch(/more memory|reset/);

    expect(await services.store.llen(trainingKeys.chunks)).toBe(before.chunks);
    expect(await services.store.scard(trainingKeys.vocabulary)).toBe(before.vocabulary);
    expect(await services.store.hgetall(trainingKeys.stats)).toEqual(before.totals);
    const model = await services.model.current();
    expect(model.vocabSize).toBe(before.vocabSize);
    expect(model.tokens('Melchizedek').map((word) => (model as NgramModel).vocabulary.has(word))).toEqual([
      false,
    ]);
    // The claim on the key was released: nothing answers for it.
    expect(await services.store.get('idempotency:train:too-much-1')).toBeNull();
  });

  it('counts what the corpus already holds, so many small trains stop at the same ceiling', async () => {
    const services = await redisServices({ MAX_CORPUS_BYTES: '2500' });
    const train = endpoint(trainHandlers(() => services));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await train.fetch(postJson(URL, { text: textOf(600, i * 100) }))).status);
    }
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect(statuses.slice(statuses.indexOf(413))).toEqual(
      statuses.slice(statuses.indexOf(413)).map(() => 413),
    );
    const totals = await services.store.hgetall(trainingKeys.stats);
    expect(Number(totals.bytes)).toBeLessThanOrEqual(2500);
  });

  it('derives the default from the function memory on Vercel, else from the machine', () => {
    const oneGb = parseConfig({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' });
    expect(instanceMemoryBytes(oneGb)).toBe(GB);
    expect(maxCorpusBytesOf(oneGb)).toBe(corpusCeilingFor(GB));
    const twoGb = maxCorpusBytesOf(parseConfig({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '2048' }));
    const fourGb = maxCorpusBytesOf(parseConfig({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '4096' }));
    expect(maxCorpusBytesOf(oneGb)).toBeGreaterThan(10_000_000);
    expect(twoGb).toBeGreaterThan(2 * maxCorpusBytesOf(oneGb));
    expect(fourGb).toBeGreaterThan(2 * twoGb * 0.95);
    expect(
      maxCorpusBytesOf(parseConfig({ MAX_CORPUS_BYTES: '12345', AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024' })),
    ).toBe(12345);
    expect(maxCorpusBytesOf(parseConfig({}))).toBeGreaterThan(0);
  });

  it('rejects a MAX_CORPUS_BYTES that is not a whole number at start', () => {
    expect(() => parseConfig({ MAX_CORPUS_BYTES: '20MB' })).toThrow(/MAX_CORPUS_BYTES/);
    expect(() => parseConfig({ MAX_CORPUS_BYTES: '0' })).toThrow(/MAX_CORPUS_BYTES/);
  });
});
