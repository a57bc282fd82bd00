/**
 * Language-model benchmark on the KJV (`npm run bench`): training and query throughput, reply
 * latency per budget, memory, snapshot size and cold start. Prints a table, then the figures as
 * one JSON object on the last line.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createModel, EOS, type NgramModel, restoreModel, UNK } from '../lib/lm/index.js';
import { generateReply, mulberry32, type ReplyBudget, replyBudgets } from '../lib/reply/index.js';
import { createEmbeddedStore, type Store, upstashStore } from '../lib/store/index.js';
import { createModelKeeper, trainingKeys } from '../lib/training/index.js';
import { startRedisServer } from '../tests/support/redis-server.js';
import { startUpstashBridge } from '../tests/support/upstash-bridge.js';

const CORPUS =
  process.env.BENCH_CORPUS ?? resolve(import.meta.dirname, '../../shared/corpora/kjv/kjv.raw.txt');
const ORDER = 4;
const MESSAGES = [
  'Tell me about Moses and Egypt',
  'What is love?',
  'Who was the first king of Israel?',
  'Do you know the way to the sea?',
  'hello there',
  'My brother took my coat',
  'Where is the garden of Eden?',
  'Why do the nations rage?',
  'I am hungry and tired',
  'Sing me a song about the stars',
];
const REPLY_RUNS: Record<keyof typeof replyBudgets, number> = { instant: 60, expert: 12, apex: 4 };

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapBytes(): number {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Training throughput (tokens/s, both directions) and the memory the trained model holds. */
function benchTraining(text: string): {
  model: NgramModel;
  seconds: number;
  tokensPerSecond: number;
  memoryBytes: number;
} {
  const before = heapBytes();
  const started = performance.now();
  const model = createModel({ order: ORDER });
  model.addText(text);
  const seconds = (performance.now() - started) / 1000;
  const memoryBytes = heapBytes() - before;
  return { model, seconds, tokensPerSecond: model.tokenCount / seconds, memoryBytes };
}

/** Forward probability queries over every line, tokens (with </s>) per second, ids precomputed, after a warm-up pass. */
function benchQueries(model: NgramModel, lines: string[]): number {
  const sentences = lines.map((line) =>
    Int32Array.from(model.tokens(line), (word) =>
      model.vocabulary.has(word) ? model.vocabulary.id(word) : UNK,
    ),
  );
  const predictor = model.forward;
  let tokens = 0;
  let checksum = 0;
  let started = performance.now();
  // Pass 0 warms the JIT up and is not timed.
  for (let pass = 0; pass <= 3; pass++) {
    if (pass === 1) {
      tokens = 0;
      started = performance.now();
    }
    for (const ids of sentences) {
      const state = predictor.startState();
      for (let i = 0; i < ids.length; i++) checksum += predictor.advance(state, ids[i]);
      checksum += predictor.advance(state, EOS);
      tokens += ids.length + 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  if (!Number.isFinite(checksum)) throw new Error('query checksum is not finite');
  return tokens / seconds;
}

/** Reply latency percentiles for one budget. */
function benchReplies(
  model: NgramModel,
  budget: ReplyBudget,
  runs: number,
): { p50: number; p95: number; candidates: number } {
  const random = mulberry32(2024);
  const latencies: number[] = [];
  let candidates = 0;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const reply = generateReply(model, { message: MESSAGES[i % MESSAGES.length], budget, random });
    latencies.push(performance.now() - started);
    candidates += reply.candidates;
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), candidates: candidates / runs };
}

/**
 * A cold start as a fresh instance does it: restore the snapshot, replay the chunks stored after
 * it, answer one query. Takes the bytes and chunks so a store-backed run can hand in what it read.
 */
export function measureColdStart(
  snapshot: Uint8Array,
  tail: string[],
): { restoreMs: number; readyMs: number } {
  const started = performance.now();
  const model = restoreModel(snapshot, tail);
  const restoreMs = performance.now() - started;
  generateReply(model, { message: 'ready?', budget: { candidates: 1, timeMs: 0 }, random: mulberry32(1) });
  return { restoreMs, readyMs: performance.now() - started };
}

/**
 * Cold start of an instance on a store that holds the whole text as 100 training chunks and a
 * snapshot covering 95 of them: the time until the model can answer.
 */
async function measureStoreColdStart(
  store: Store,
  text: string,
): Promise<{ chunks: number; tailChunks: number; readyMs: number; storedSnapshotBytes: number }> {
  const lines = text.split('\n');
  const chunks = 100;
  const perChunk = Math.ceil(lines.length / chunks);
  const warm = createModelKeeper(store, { order: ORDER, snapshotEvery: 95 });
  for (let index = 0; index < chunks; index++) {
    await warm.train(lines.slice(index * perChunk, (index + 1) * perChunk).join('\n') || '.');
  }
  const cold = createModelKeeper(store, { order: ORDER, snapshotEvery: 1_000_000 });
  const started = performance.now();
  await cold.current();
  const readyMs = performance.now() - started;
  const storedSnapshotBytes = (await store.getBlob(trainingKeys.snapshot))?.byteLength ?? 0;
  return { chunks, tailChunks: 5, readyMs, storedSnapshotBytes };
}

/**
 * The same on a real Redis through the Upstash REST bridge of the tests (the real @upstash/redis
 * client, base64 blob parts and all); undefined when redis-server is not installed.
 */
async function measureRedisColdStart(
  text: string,
): Promise<Awaited<ReturnType<typeof measureStoreColdStart>> | undefined> {
  let redis: Awaited<ReturnType<typeof startRedisServer>>;
  try {
    redis = await startRedisServer();
  } catch {
    return undefined;
  }
  const bridge = await startUpstashBridge(redis.url);
  try {
    const token = await bridge.allocateDatabase();
    return await measureStoreColdStart(upstashStore({ url: bridge.url, token, retries: 0 }), text);
  } finally {
    await bridge.close();
    await redis.stop();
  }
}

async function main(): Promise<void> {
  const text = readFileSync(CORPUS, 'utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const tailChunks = 5;
  const chunkLines = 20;
  const head = lines.slice(0, lines.length - tailChunks * chunkLines);
  const tail = Array.from({ length: tailChunks }, (_, i) =>
    lines.slice(head.length + i * chunkLines, head.length + (i + 1) * chunkLines).join('\n'),
  );

  const training = benchTraining(text);
  const queryTokensPerSecond = benchQueries(training.model, lines);
  const replies = Object.fromEntries(
    (Object.keys(replyBudgets) as (keyof typeof replyBudgets)[]).map((mode) => [
      mode,
      benchReplies(training.model, replyBudgets[mode], REPLY_RUNS[mode]),
    ]),
  );

  const headModel = createModel({ order: ORDER });
  headModel.addText(head.join('\n'));
  let started = performance.now();
  const snapshot = headModel.serialize();
  const serializeMs = performance.now() - started;
  measureColdStart(snapshot, tail);
  started = performance.now();
  const coldStart = measureColdStart(snapshot, tail);

  const figures = {
    corpus: CORPUS,
    order: ORDER,
    tokens: training.model.tokenCount,
    vocabSize: training.model.vocabSize,
    trainSeconds: training.seconds,
    trainTokensPerSecond: training.tokensPerSecond,
    queryTokensPerSecond,
    replies,
    modelMemoryBytes: training.memoryBytes,
    typedArrayBytes: training.model.byteLength,
    snapshotBytes: snapshot.length,
    snapshotBase64Bytes: Math.ceil(snapshot.length / 3) * 4,
    serializeMs,
    coldStart: { ...coldStart, tailChunks, tailLines: tailChunks * chunkLines },
  };

  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const rows: [string, string, string][] = [
    [
      'training (order 4, both directions)',
      `${Math.round(figures.trainTokensPerSecond).toLocaleString('en')} tokens/s`,
      `${figures.trainSeconds.toFixed(2)} s for ${figures.tokens.toLocaleString('en')} tokens`,
    ],
    [
      'probability queries (forward)',
      `${(queryTokensPerSecond / 1e6).toFixed(2)}M tokens/s`,
      'target >= 2M/s',
    ],
    ...Object.entries(replies).map(([mode, r]): [string, string, string] => [
      `reply latency, ${mode}`,
      `p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`,
      `${r.candidates.toFixed(0)} candidates on average${mode === 'instant' ? ', target p50 <= 50 ms' : ''}`,
    ]),
    [
      'model memory after training',
      mb(figures.modelMemoryBytes),
      `typed arrays ${mb(figures.typedArrayBytes)}, target <= 100 MB`,
    ],
    [
      'snapshot',
      mb(figures.snapshotBytes),
      `${mb(figures.snapshotBase64Bytes)} as base64, written in ${serializeMs.toFixed(0)} ms`,
    ],
    [
      'cold start (snapshot + 5 chunks)',
      `${coldStart.readyMs.toFixed(0)} ms`,
      `restore ${coldStart.restoreMs.toFixed(0)} ms, target <= 1000 ms`,
    ],
  ];

  const storeCold = await measureStoreColdStart(createEmbeddedStore(), text);
  rows.push([
    'cold start from the embedded store',
    `${storeCold.readyMs.toFixed(0)} ms`,
    `${storeCold.chunks} chunks, deflated snapshot of ${mb(storeCold.storedSnapshotBytes)} + ${storeCold.tailChunks}-chunk tail`,
  ]);
  const redisCold = await measureRedisColdStart(text);
  rows.push([
    'cold start from Redis (REST bridge)',
    redisCold ? `${redisCold.readyMs.toFixed(0)} ms` : 'skipped',
    redisCold ? 'real redis-server on loopback, @upstash/redis client' : 'redis-server not installed',
  ]);
  Object.assign(figures, { storeColdStart: storeCold, redisColdStart: redisCold ?? null });
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows)
    process.stdout.write(row.map((cell, i) => cell.padEnd(widths[i])).join('  ') + '\n');
  process.stdout.write(JSON.stringify(figures) + '\n');
}

await main();
