/**
 * The benchmark (`npm run bench`): what the service does, on the KJV, with the peer figure beside
 * each where one is known. Training, model memory, probability queries (KenLM's test), reply
 * generation and retrieval at the service's defaults (temperature 0.7, maxTokens 80) in each mode,
 * snapshot and cold starts, and a load run against `npm start` with autocannon. Prints one table,
 * then every figure as one JSON object on the last line. `BENCH_LOAD=off` skips the load run,
 * `BENCH_LOAD_SECONDS` sets its length (default 20). `KENLM_BIN` (a directory holding KenLM's `lmplz`,
 * `build_binary` and `query`) measures KenLM live on the same files in the same run (kenlm-peer.ts).
 *
 * The machine may be shared: every timed figure is also given per CPU-second of this process
 * (or of the server's processes), which other processes' load disturbs far less than wall time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import autocannon from 'autocannon';
import { chatHandlers } from '../lib/chat/handlers.js';
import { endpoint } from '../lib/http/index.js';
import { createModel, evaluatePerplexity, type NgramModel, restoreModel } from '../lib/lm/index.js';
import { evidenceBudgets, type Knowledge, replyTo } from '../lib/pipeline/index.js';
import { generateReply, mulberry32, type ReplyMode, replyBudgets } from '../lib/reply/index.js';
import { queryTermsOf } from '../lib/retrieval/index.js';
import { createEmbeddedStore, type Store, upstashStore } from '../lib/store/index.js';
import { createModelKeeper, trainingKeys } from '../lib/training/index.js';
import { variantBChatHandlers } from '../lib/variant-b/handlers.js';
import { startRedisServer } from '../tests/support/redis-server.js';
import { startUpstashBridge } from '../tests/support/upstash-bridge.js';
import { againstOptions, benchAgainst } from './bench-against.js';
import { benchServices, trainingParts } from './bench-services.js';
import { printStages } from './bench-stages.js';
import { type KenlmFigures, kenlmDirectory, measureKenlm } from './kenlm-peer.js';

const ROOT = resolve(import.meta.dirname, '..');
const KJV_DIR =
  process.env.KJV_DIR ??
  [resolve(ROOT, '../shared/corpora/kjv'), resolve(ROOT, '../../shared/corpora/kjv')].find((dir) =>
    existsSync(dir),
  ) ??
  resolve(ROOT, '../shared/corpora/kjv');
const CORPUS = process.env.BENCH_CORPUS ?? join(KJV_DIR, 'kjv.raw.txt');
const ORDER = 4;
/** KenLM's query test: the norm train split, and the test split repeated QUERY_REPEAT times. */
const TRAIN_SPLIT = join(KJV_DIR, 'kjv.norm.contig.train');
const TEST_SPLIT = join(KJV_DIR, 'kjv.norm.contig.test');
const QUERY_REPEAT = 200;
/** The service's defaults (lib/chat/schema.ts). */
const TEMPERATURE = 0.7;
const MAX_TOKENS = 80;
const MODES: ReplyMode[] = ['instant', 'expert', 'apex'];
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
  'Who was the mother of Samuel?',
  'How many sons did Jacob have?',
];
const CHIT_CHAT = ['hello there', 'good morning to you', 'thanks, bye', 'tell me a story about the sea'];
const RUNS: Record<ReplyMode, number> = { instant: 120, expert: 40, apex: 8 };
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const LOAD_CONNECTIONS = 10;

/** Peer and target figures: KenLM measured on this machine kind (corpus README, issue 14). */
const PEER = {
  train: 'lmplz: about 1 s for the 0.83M-token KJV split (one direction)',
  memory: 'KenLM probing: 26 MB per direction (52 MB for two); target <= 52 MB',
  queries: 'KenLM: 14.9M tokens/s on the machine of issue 14, 5.9-6.8M on ours; target >= 7.5M (half KenLM)',
  instantLoad: 'target >= 500 req/s, p99 <= 100 ms',
  expertLoad: 'target >= 100 req/s',
  coldStart: 'target: no worse than ~0.3 s',
};

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapBytes(): number {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`;
const perSecond = (value: number) => `${(value / 1e6).toFixed(2)}M/s`;

/** Training throughput (tokens/s, both directions) and the memory the trained model holds. */
function benchTraining(text: string) {
  const before = heapBytes();
  const started = performance.now();
  const cpu = cpuMs();
  const model = createModel({ order: ORDER });
  model.addText(text);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = (cpuMs() - cpu) / 1000;
  const memoryBytes = heapBytes() - before;
  return { model, seconds, cpuSeconds, tokensPerSecond: model.tokenCount / seconds, memoryBytes };
}

/**
 * KenLM's query test as `npm run lm -- eval --pretokenized` runs it: a forward order-4 model of the
 * KJV train split scoring the test split repeated 200 times (17M tokens), text to perplexity.
 */
function benchQueries() {
  if (!existsSync(TRAIN_SPLIT) || !existsSync(TEST_SPLIT)) return null;
  const trainStarted = performance.now();
  const trainCpu = cpuMs();
  const model = createModel({ order: ORDER, tokenizer: 'whitespace', directions: 'forward' });
  model.addText(readFileSync(TRAIN_SPLIT, 'utf8'));
  const trainSeconds = (performance.now() - trainStarted) / 1000;
  const trainCpuSeconds = (cpuMs() - trainCpu) / 1000;
  // The file's bytes, as KenLM's query reads them: line splitting and word ids are timed too.
  const test = readFileSync(TEST_SPLIT);
  evaluatePerplexity(model, test);
  const repeated = Buffer.concat(Array.from({ length: QUERY_REPEAT }, () => test));
  const started = performance.now();
  const cpu = cpuMs();
  const report = evaluatePerplexity(model, repeated);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = (cpuMs() - cpu) / 1000;
  return {
    trainSeconds,
    trainCpuSeconds,
    tokens: report.tokens,
    perplexity: report.perplexity,
    tokensPerSecond: report.tokens / seconds,
    tokensPerCpuSecond: report.tokens / cpuSeconds,
  };
}

/** Latency percentiles (and CPU per call) of `run` over `messages`, after a warm-up round. */
function timeCalls(messages: readonly string[], runs: number, run: (message: string) => number | undefined) {
  for (const message of messages) run(message);
  const latencies: number[] = [];
  let work = 0;
  const cpu = cpuMs();
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work += run(messages[i % messages.length]) ?? 0;
    latencies.push(performance.now() - started);
  }
  return {
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    cpuMs: (cpuMs() - cpu) / runs,
    work: work / runs,
  };
}

/** The generator alone (chit-chat) at the service's defaults: candidates grown per mode budget. */
function benchGeneration(model: NgramModel, mode: ReplyMode) {
  const random = mulberry32(2024);
  return timeCalls(CHIT_CHAT, RUNS[mode], (message) => {
    const reply = generateReply(model, {
      message,
      budget: replyBudgets[mode],
      temperature: TEMPERATURE,
      maxTokens: MAX_TOKENS,
      random,
    });
    return reply.candidates;
  });
}

/** Retrieval alone: BM25 search for the message's words, as many passages as the mode retrieves. */
function benchRetrieval(knowledge: Knowledge, mode: ReplyMode) {
  return timeCalls(MESSAGES, RUNS[mode] * 10, (message) => {
    return knowledge.passages.search(queryTermsOf(message, 1), evidenceBudgets[mode].retrieve).length;
  });
}

/** A whole local reply as the chat endpoints compose it (retrieval and evidence, or the generator). */
function benchCompose(knowledge: Knowledge, mode: ReplyMode) {
  const random = mulberry32(7);
  return timeCalls(MESSAGES, RUNS[mode], (message) => {
    replyTo(knowledge, {
      message,
      history: [],
      evidence: evidenceBudgets[mode],
      chitChat: replyBudgets[mode],
      temperature: TEMPERATURE,
      maxTokens: MAX_TOKENS,
      random,
    });
    return undefined;
  });
}

/**
 * Both chat endpoints in process, every mode, through their handlers (validation, limits, session,
 * reply, recording) on an in-memory embedded store: the request path without the network.
 */
async function benchEndpoints(text: string) {
  const services = await benchServices(text);
  const chatA = endpoint(chatHandlers(() => services));
  const chatB = endpoint(variantBChatHandlers(() => services));
  let session = 0;
  const post = (path: string, body: object) =>
    new Request(`http://127.0.0.1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-real-ip': '127.0.0.1' },
      body: JSON.stringify(body),
    });
  const cases: [string, number, (message: string) => Request][] = [
    ...MODES.map((mode): [string, number, (message: string) => Request] => [
      `POST /api/chat ${mode}`,
      RUNS[mode],
      (message) => post('/api/chat', { message, modelMode: mode, sessionId: `a${session++}` }),
    ]),
    ...(['standard', 'think', 'deep_think'] as const).map(
      (mode, i): [string, number, (message: string) => Request] => [
        `POST /api/api/chat ${mode}`,
        RUNS[MODES[i]],
        (message) => post('/api/api/chat', { message, mode }),
      ],
    ),
  ];
  const results: Record<string, { p50: number; p95: number; cpuMs: number }> = {};
  for (const [name, runs, request] of cases) {
    const target = name.includes('/api/api/') ? chatB : chatA;
    for (const message of MESSAGES) await (await target.fetch(request(message))).text();
    const latencies: number[] = [];
    const cpu = cpuMs();
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const response = await target.fetch(request(MESSAGES[i % MESSAGES.length]));
      await response.text();
      if (!response.ok) throw new Error(`${name}: ${response.status}`);
      latencies.push(performance.now() - started);
    }
    results[name] = {
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
      cpuMs: (cpuMs() - cpu) / runs,
    };
  }
  return results;
}

/**
 * A cold start as a fresh instance does it: restore the snapshot, replay the chunks stored after
 * it, answer one query.
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
 * snapshot covering 95 of them: the time until the model and the passage index can answer.
 */
async function measureStoreColdStart(store: Store, text: string) {
  const lines = text.split('\n');
  const chunks = 100;
  const perChunk = Math.ceil(lines.length / chunks);
  const warm = createModelKeeper(store, { order: ORDER, snapshotEvery: 95 });
  for (let index = 0; index < chunks; index++) {
    await warm.train(lines.slice(index * perChunk, (index + 1) * perChunk).join('\n') || '.');
  }
  const cold = createModelKeeper(store, { order: ORDER, snapshotEvery: 1_000_000 });
  const started = performance.now();
  const knowledge = await cold.knowledge();
  const readyMs = performance.now() - started;
  // The first chit-chat reply also decodes the backward model, which a cold start leaves until needed.
  const replyStarted = performance.now();
  replyTo(knowledge, {
    message: 'hello there',
    history: [],
    evidence: evidenceBudgets.instant,
    chitChat: { candidates: 1, timeMs: 0 },
    random: mulberry32(1),
  });
  const firstChitChatMs = performance.now() - replyStarted;
  const storedSnapshotBytes = (await store.getBlob(trainingKeys.snapshot))?.byteLength ?? 0;
  return { chunks, tailChunks: 5, readyMs, firstChitChatMs, storedSnapshotBytes };
}

/** The same on a real Redis through the Upstash REST bridge of the tests; undefined without redis-server. */
async function measureRedisColdStart(text: string) {
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

/** CPU milliseconds used so far by the processes of process group `group` (Linux /proc). */
function groupCpuMs(group: number): number {
  const ticks = 100;
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

/** SIGTERM to the server's process group, then SIGKILL to whatever is left of it after 5 s. */
async function stopGroup(group: number): Promise<void> {
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-group, name);
      return true;
    } catch {
      return false; // The group is gone.
    }
  };
  if (!signal('SIGTERM')) return;
  for (let waited = 0; waited < 5000; waited += 100) {
    await new Promise((done) => setTimeout(done, 100));
    if (!signal(0)) return;
  }
  signal('SIGKILL');
}

async function waitForServer(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error('npm start did not answer within 2 minutes');
}

/** This process's environment without what would send the server to Redis or an external model. */
function localEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(UPSTASH_|KV_|LLM_|OIDC_)/.test(name)) delete env[name];
  }
  return env;
}

interface LoadFigures {
  mode: ReplyMode;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  serverCpuMsPerRequest: number;
}

/**
 * `npm start` on an embedded store in a temporary DATA_DIR with rate limits and session limits out
 * of the way, trained on the corpus through POST /api/train, then autocannon: LOAD_SECONDS at
 * LOAD_CONNECTIONS connections per mode, every request a new session, the messages in turn.
 */
async function benchLoad(text: string): Promise<{ figures: LoadFigures[]; trainSeconds: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-'));
  const port = 4100 + Math.floor(Math.random() * 800);
  const url = `http://127.0.0.1:${port}`;
  const server = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...localEnvironment(),
      PORT: String(port),
      DATA_DIR: dataDir,
      STARTER_TEXT: 'off',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_REQUESTS: '1000000',
      SESSION_LIMIT_FREE: '1000000',
      SESSION_LIMIT_SIGNED_IN: '1000000',
    },
  });
  const group = server.pid!;
  try {
    await waitForServer(url, server);
    const started = performance.now();
    for (const part of trainingParts(text)) {
      const response = await fetch(`${url}/api/train`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: part }),
      });
      if (!response.ok) throw new Error(`POST /api/train: ${response.status} ${await response.text()}`);
    }
    const trainSeconds = (performance.now() - started) / 1000;
    const figures: LoadFigures[] = [];
    for (const mode of ['instant', 'expert'] as const) {
      let sent = 0;
      const body = () =>
        JSON.stringify({
          message: MESSAGES[sent % MESSAGES.length],
          sessionId: `bench-${mode}-${sent++}`,
          modelMode: mode,
        });
      // One request to bring the model and the passage index in, and a short warm-up.
      await fetch(`${url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(),
      });
      await autocannon({
        url,
        connections: LOAD_CONNECTIONS,
        duration: 2,
        requests: [
          {
            method: 'POST',
            path: '/api/chat',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: body() }),
          },
        ],
      });
      const cpuBefore = groupCpuMs(group);
      const result = await autocannon({
        url,
        connections: LOAD_CONNECTIONS,
        duration: LOAD_SECONDS,
        requests: [
          {
            method: 'POST',
            path: '/api/chat',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: body() }),
          },
        ],
      });
      const cpu = groupCpuMs(group) - cpuBefore;
      const requests = result.requests.total;
      figures.push({
        mode,
        requestsPerSecond: requests / (result.duration || LOAD_SECONDS),
        p50: result.latency.p50,
        p99: result.latency.p99,
        requests,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
        serverCpuMsPerRequest: requests > 0 ? cpu / requests : 0,
      });
    }
    return { figures, trainSeconds };
  } finally {
    await stopGroup(group);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const against = againstOptions(process.argv.slice(2), CORPUS);
  if (against) return benchAgainst(against);
  const stagesAt = process.argv.indexOf('--stages');
  if (stagesAt >= 0) {
    const topAt = process.argv.indexOf('--top');
    const dirs = process.argv
      .slice(stagesAt + 1)
      .filter((arg, i, rest) => !arg.startsWith('--') && rest[i - 1] !== '--top');
    return printStages(dirs.slice(0, 2), topAt >= 0 ? Number(process.argv[topAt + 1]) : 25);
  }
  const text = readFileSync(CORPUS, 'utf8');
  const rows: [string, string, string][] = [];
  const figures: Record<string, unknown> = {
    corpus: CORPUS,
    order: ORDER,
    temperature: TEMPERATURE,
    maxTokens: MAX_TOKENS,
  };

  // KenLM first, so that its training and query runs sit next to ours under the same load.
  const kenlmBin = kenlmDirectory();
  const kenlm: KenlmFigures | null =
    kenlmBin && existsSync(TRAIN_SPLIT) && existsSync(TEST_SPLIT)
      ? measureKenlm(kenlmBin, {
          order: ORDER,
          trainFile: TRAIN_SPLIT,
          testFile: TEST_SPLIT,
          repeat: QUERY_REPEAT,
        })
      : null;

  const training = benchTraining(text);
  const model = training.model;
  rows.push([
    'training (order 4, both directions)',
    `${training.seconds.toFixed(2)} s, ${Math.round(training.tokensPerSecond).toLocaleString('en')} tokens/s`,
    kenlm
      ? `lmplz -S 50M, live: ${kenlm.train.seconds.toFixed(2)} s (${kenlm.train.cpuSeconds.toFixed(2)} CPU-s), ${mb(kenlm.train.peakRssBytes)} peak RSS for the norm train split, one direction`
      : PEER.train,
  ]);
  rows.push([
    'model memory after training',
    `${mb(training.memoryBytes)} (typed arrays ${mb(model.byteLength)})`,
    kenlm
      ? `KenLM probing, live: ${mb(kenlm.probingBytes)} file, ${mb(kenlm.query.peakRssBytes)} query peak RSS per direction; target <= 52 MB`
      : PEER.memory,
  ]);
  Object.assign(figures, {
    tokens: model.tokenCount,
    vocabSize: model.vocabSize,
    trainSeconds: training.seconds,
    trainCpuSeconds: training.cpuSeconds,
    modelMemoryBytes: training.memoryBytes,
    typedArrayBytes: model.byteLength,
  });

  const queries = benchQueries();
  const ratios =
    kenlm && queries
      ? {
          trainTime: queries.trainSeconds / kenlm.train.seconds,
          trainCpu: queries.trainCpuSeconds / kenlm.train.cpuSeconds,
          queries: queries.tokensPerSecond / kenlm.query.tokensPerSecond,
          queriesPerCpu: queries.tokensPerCpuSecond / kenlm.query.tokensPerCpuSecond,
        }
      : null;
  if (queries) {
    rows.push([
      'training on the norm train split (order 4, forward)',
      `${queries.trainSeconds.toFixed(2)} s (${queries.trainCpuSeconds.toFixed(2)} CPU-s)`,
      ratios ? `${ratios.trainTime.toFixed(2)}x lmplz's time (${ratios.trainCpu.toFixed(2)}x its CPU)` : '',
    ]);
  }
  rows.push([
    'probability queries (order 4, KJV test x200)',
    queries
      ? `${perSecond(queries.tokensPerSecond)} (${perSecond(queries.tokensPerCpuSecond)} per CPU-s), ppl ${queries.perplexity.toFixed(2)}`
      : 'skipped (no kjv.norm.contig.* in KJV_DIR)',
    kenlm && ratios
      ? `KenLM query, whole process, live: ${perSecond(kenlm.query.tokensPerSecond)} (${perSecond(kenlm.query.tokensPerCpuSecond)} per CPU-s), ppl ${kenlm.query.perplexity.toFixed(2)}; ours ${ratios.queries.toFixed(2)}x (${ratios.queriesPerCpu.toFixed(2)}x per CPU-s); target >= 7.5M`
      : PEER.queries,
  ]);
  figures.queries = queries;
  figures.kenlm = kenlm ? { ...kenlm, ratios } : null;

  const generation = Object.fromEntries(MODES.map((mode) => [mode, benchGeneration(model, mode)]));
  for (const mode of MODES) {
    const g = generation[mode];
    rows.push([
      `generator, ${mode} (T ${TEMPERATURE}, ${MAX_TOKENS} tokens, ${replyBudgets[mode].candidates} candidates / ${replyBudgets[mode].timeMs} ms)`,
      `p50 ${ms(g.p50)}, p95 ${ms(g.p95)}, ${g.work.toFixed(0)} candidates`,
      'issue 14 before: instant 12.5-13 ms at T 0.7',
    ]);
  }
  figures.generation = generation;

  const keeper = createModelKeeper(createEmbeddedStore(), { order: ORDER, snapshotEvery: 1_000_000 });
  for (const part of trainingParts(text)) await keeper.train(part);
  const knowledge = await keeper.knowledge();
  const retrieval = Object.fromEntries(MODES.map((mode) => [mode, benchRetrieval(knowledge, mode)]));
  const compose = Object.fromEntries(MODES.map((mode) => [mode, benchCompose(knowledge, mode)]));
  for (const mode of MODES) {
    const r = retrieval[mode];
    rows.push([
      `retrieval, ${mode} (top ${evidenceBudgets[mode].retrieve} of ${knowledge.passages.size.toLocaleString('en')} passages)`,
      `p50 ${ms(r.p50)}, p95 ${ms(r.p95)}`,
      '',
    ]);
  }
  for (const mode of MODES) {
    const c = compose[mode];
    rows.push([`local reply, ${mode} (questions and chit-chat)`, `p50 ${ms(c.p50)}, p95 ${ms(c.p95)}`, '']);
  }
  Object.assign(figures, { retrieval, compose, passages: knowledge.passages.size });

  const endpoints = await benchEndpoints(text);
  for (const [name, e] of Object.entries(endpoints)) {
    rows.push([
      `${name}, in process`,
      `p50 ${ms(e.p50)}, p95 ${ms(e.p95)}, ${ms(e.cpuMs)} CPU per request`,
      '',
    ]);
  }
  figures.endpoints = endpoints;

  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const tailChunks = 5;
  const chunkLines = 20;
  const head = lines.slice(0, lines.length - tailChunks * chunkLines);
  const tail = Array.from({ length: tailChunks }, (_, i) =>
    lines.slice(head.length + i * chunkLines, head.length + (i + 1) * chunkLines).join('\n'),
  );
  const headModel = createModel({ order: ORDER });
  headModel.addText(head.join('\n'));
  const started = performance.now();
  const snapshot = headModel.serialize();
  const serializeMs = performance.now() - started;
  measureColdStart(snapshot, tail);
  const coldStart = measureColdStart(snapshot, tail);
  rows.push([
    'model snapshot',
    `${mb(snapshot.length)}, written in ${ms(serializeMs)}`,
    `${mb(Math.ceil(snapshot.length / 3) * 4)} as base64`,
  ]);
  rows.push([
    'cold start in process (snapshot + 5 chunks)',
    `${ms(coldStart.readyMs)} (restore ${ms(coldStart.restoreMs)})`,
    '',
  ]);
  const storeCold = await measureStoreColdStart(createEmbeddedStore(), text);
  rows.push([
    'cold start from the embedded store (model + passages)',
    `${ms(storeCold.readyMs)}, then first chit-chat reply ${ms(storeCold.firstChitChatMs)}`,
    `100 chunks, compressed snapshot ${mb(storeCold.storedSnapshotBytes)} + 5-chunk tail`,
  ]);
  const redisCold = await measureRedisColdStart(text);
  rows.push([
    'cold start from Redis (REST bridge, model + passages)',
    redisCold
      ? `${ms(redisCold.readyMs)}, then first chit-chat reply ${ms(redisCold.firstChitChatMs)}`
      : 'skipped (no redis-server)',
    PEER.coldStart,
  ]);
  Object.assign(figures, {
    snapshotBytes: snapshot.length,
    serializeMs,
    coldStart: { ...coldStart, tailChunks, tailLines: tailChunks * chunkLines },
    storeColdStart: storeCold,
    redisColdStart: redisCold ?? null,
  });

  if (process.env.BENCH_LOAD !== 'off') {
    const load = await benchLoad(text);
    for (const f of load.figures) {
      rows.push([
        `npm start under autocannon, ${f.mode} (${LOAD_SECONDS} s, ${LOAD_CONNECTIONS} connections)`,
        `${f.requestsPerSecond.toFixed(0)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, ${f.errors + f.non2xx} failed; server ${f.serverCpuMsPerRequest.toFixed(2)} CPU-ms/request`,
        f.mode === 'instant' ? PEER.instantLoad : PEER.expertLoad,
      ]);
    }
    figures.load = load;
  }

  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  process.stdout.write(`${line(['measure', 'this service', 'peer / target'])}\n`);
  process.stdout.write(`${line(widths.map((width) => '-'.repeat(width)))}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

await main();
