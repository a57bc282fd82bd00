/**
 * One measured step of `npm run bench:scale`, in a process of its own so that its peak and
 * resident memory are its own: `train PARTS_DIR DATA_DIR TAIL_DIR` trains the parts of a corpus
 * (one file each, read one at a time) into an embedded
 * store, keeps a copy of it in TAIL_DIR as training left it, then waits for the quiet-time snapshot,
 * `copy DATA_DIR URL TOKEN` copies the trained store to Redis (through the Upstash REST bridge),
 * `cold embedded DATA_DIR` / `cold upstash URL TOKEN` start an instance and answer, `delete DATA_DIR`
 * starts an instance, answers, then deletes the first document and measures what the delete costs
 * it (the rebuild from the live chunks). Prints one JSON line.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { chatHandlers } from '../lib/chat/handlers.js';
import { parseConfig } from '../lib/config/index.js';
import { endpoint } from '../lib/http/index.js';
import { mulberry32 } from '../lib/reply/index.js';
import { createServices, type Services } from '../lib/services/index.js';
import { createEmbeddedStore, STORE_FILE, type Store, upstashStore } from '../lib/store/index.js';
import { trainHandlers } from '../lib/training/handlers.js';
import { deleteDocument, trainingKeys } from '../lib/training/index.js';

const MESSAGES = [
  'Who was the mother of Samuel?',
  'How do I delete a line in Vim?',
  'What does the substitute command do?',
  'Where is the garden of Eden?',
  'How do I install it with npm?',
  'What is a buffer?',
  'Tell me about Moses and Egypt',
  'hello there',
  'How do I split a window?',
  'What is the license?',
];
const REPLY_RUNS = 30;

/** Peak resident memory of this process so far (the kernel's high-water mark), bytes. */
function peakRss(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.memoryUsage().rss;
}

function servicesOn(store: Store): Services {
  const passed = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.startsWith('LM_') || name === 'MAX_CORPUS_BYTES'),
  );
  return createServices(
    parseConfig({
      ...passed,
      STARTER_TEXT: 'off',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_REQUESTS: '1000000',
      SESSION_LIMIT_FREE: '1000000',
      SESSION_LIMIT_SIGNED_IN: '1000000',
    }),
    { store, random: mulberry32(1) },
  );
}

function post(path: string, body: object): Request {
  return new Request(`http://127.0.0.1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-real-ip': '127.0.0.1' },
    body: JSON.stringify(body),
  });
}

/** The snapshot writes the keeper logs (`snapshot_written`), caught from its log lines. */
function catchSnapshotLogs(): Record<string, number>[] {
  const written: Record<string, number>[] = [];
  const log = console.log;
  console.log = (line: unknown, ...rest: unknown[]) => {
    if (typeof line === 'string' && line.includes('"event":"snapshot_written"'))
      written.push(JSON.parse(line));
    else log(line, ...rest);
  };
  return written;
}

/** Bytes of the parts after the first `covered`: what a cold start replays. */
function tailBytesOf(partBytes: number[], covered: number): number {
  return partBytes.slice(covered).reduce((sum, bytes) => sum + bytes, 0);
}

/** The part files of a corpus (`part-00001.txt`, ...), in order. */
function partFilesOf(partsDir: string): string[] {
  return readdirSync(partsDir)
    .filter((name) => /^part-\d+\.txt$/.test(name))
    .sort()
    .map((name) => join(partsDir, name));
}

async function train(partsDir: string, dataDir: string, tailDir: string) {
  // One part in memory at a time, as a server receives them: the corpus is not the service's memory.
  const parts = partFilesOf(partsDir);
  const partBytes = parts.map((part) => statSync(part).size);
  const store = createEmbeddedStore({ dataDir });
  const services = servicesOn(store);
  const { setLogLevel } = await import('../lib/log/index.js');
  setLogLevel('info');
  const snapshots = catchSnapshotLogs();
  const handler = endpoint(trainHandlers(() => services));
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let refused: string | undefined;
  for (const partFile of parts) {
    const part = readFileSync(partFile, 'utf8');
    const response = await handler.fetch(post('/api/train', { text: part }));
    if (!response.ok) {
      refused = `${response.status} ${await response.text()}`;
      break;
    }
    await response.text();
  }
  await services.model.idle();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const stats = await services.model.stats();
  // The store as a serverless instance leaves it (the tail since the last snapshot still to
  // replay), copied consistently by SQLite, before the quiet-time snapshot a long-lived server
  // writes once training stops.
  mkdirSync(tailDir, { recursive: true });
  const sqlite = new DatabaseSync(join(dataDir, STORE_FILE));
  sqlite.exec(`VACUUM INTO '${join(tailDir, STORE_FILE).replaceAll("'", "''")}'`);
  sqlite.close();
  const quietBefore = snapshots.length;
  const deadline = Date.now() + 60_000;
  while (snapshots.length === quietBefore && stats.snapshotChunks < stats.chunks && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await services.model.idle();
  }
  delay.disable();
  const snapshot = await store.getBlob(trainingKeys.snapshot);
  const bytes = partBytes.reduce((sum, size) => sum + size, 0);
  return {
    bytes,
    parts: parts.length,
    seconds,
    mbPerSecond: bytes / 1e6 / seconds,
    mbPerCpuSecond: bytes / 1e6 / cpuSeconds,
    peakRss: peakRss(),
    snapshotBytes: snapshot?.byteLength ?? 0,
    chunks: stats.chunks,
    snapshotChunks: stats.snapshotChunks,
    tailBytes: stats.snapshotChunks < stats.chunks ? tailBytesOf(partBytes, stats.snapshotChunks) : 0,
    longestBlockMs: delay.max / 1e6,
    snapshots,
    refused,
  };
}

/** Copies what a cold instance reads (the chunks, the epoch, the snapshot and its hint) to Redis. */
async function copy(dataDir: string, url: string, token: string) {
  const from = createEmbeddedStore({ dataDir });
  const to = upstashStore({ url, token, retries: 0 });
  const length = await from.llen(trainingKeys.chunks);
  for (let at = 0; at < length; at += 4) {
    await to.rpush(trainingKeys.chunks, ...(await from.lrange(trainingKeys.chunks, at, at + 3)));
  }
  for (const key of [trainingKeys.epoch, trainingKeys.snapshotChunks]) {
    const value = await from.get(key);
    if (value !== null) await to.set(key, value);
  }
  await to.hset(trainingKeys.stats, await from.hgetall(trainingKeys.stats));
  const snapshot = await from.getBlob(trainingKeys.snapshot);
  if (snapshot) await to.setBlob(trainingKeys.snapshot, snapshot);
  return { chunks: length };
}

async function cold(store: () => Store) {
  const started = performance.now();
  const services = servicesOn(store());
  const chat = endpoint(chatHandlers(() => services));
  let session = 0;
  const ask = async (message: string) => {
    const response = await chat.fetch(post('/api/chat', { message, sessionId: `s${session++}` }));
    const body = await response.text();
    if (!response.ok) throw new Error(`chat answered ${response.status}: ${body}`);
  };
  await ask(MESSAGES[0]);
  const firstAnswerMs = performance.now() - started;
  const rssAfter = process.memoryUsage().rss;
  const latencies: number[] = [];
  for (let i = 0; i < REPLY_RUNS; i++) {
    const at = performance.now();
    await ask(MESSAGES[i % MESSAGES.length]);
    latencies.push(performance.now() - at);
  }
  latencies.sort((a, b) => a - b);
  return {
    firstAnswerMs,
    rssAfter,
    replyP50Ms: latencies[Math.floor(latencies.length / 2)],
    peakRss: peakRss(),
  };
}

/** A warm instance deletes the first document: how long until it answers again, and its memory. */
async function deleteFirst(dataDir: string) {
  const store = createEmbeddedStore({ dataDir });
  const services = servicesOn(store);
  const chat = endpoint(chatHandlers(() => services));
  const ask = async (message: string) => {
    const response = await chat.fetch(post('/api/chat', { message, sessionId: 'delete' }));
    if (!response.ok) throw new Error(`chat answered ${response.status}`);
    await response.text();
  };
  await ask(MESSAGES[0]);
  const documents = await services.model.documents();
  const first = documents.sort((a, b) => a.trainedAt.localeCompare(b.trainedAt))[0];
  if (!first) throw new Error('no document to delete');
  const rssBefore = process.memoryUsage().rss;
  const peakBefore = peakRss();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await deleteDocument(services.model, store, first.id);
  const deleteMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const at = performance.now();
  await ask(MESSAGES[1]);
  const firstAnswerAfterMs = performance.now() - at;
  // The snapshot the deleting instance writes after its response, so cold starts need no rebuild.
  const snapshotStarted = performance.now();
  await services.model.idle();
  return {
    snapshotAfterMs: performance.now() - snapshotStarted,
    documents: documents.length,
    deletedBytes: first.bytes,
    deleteMs,
    deleteCpuMs: (cpu.user + cpu.system) / 1000,
    firstAnswerAfterMs,
    rssBefore,
    rssAfter: process.memoryUsage().rss,
    peakRss: peakRss(),
    peakBefore,
  };
}

async function main(args: string[]): Promise<unknown> {
  const [step, ...rest] = args;
  if (step === 'train') return train(rest[0], rest[1], rest[2]);
  if (step === 'copy') return copy(rest[0], rest[1], rest[2]);
  if (step === 'delete') return deleteFirst(rest[0]);
  if (step === 'cold' && rest[0] === 'embedded') return cold(() => createEmbeddedStore({ dataDir: rest[1] }));
  if (step === 'cold' && rest[0] === 'upstash')
    return cold(() => upstashStore({ url: rest[1], token: rest[2], retries: 0 }));
  throw new Error(`unknown step: ${args.join(' ')}`);
}

main(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
