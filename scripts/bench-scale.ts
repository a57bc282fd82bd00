/**
 * `npm run bench:scale`: how the service grows with its corpus. Builds corpora of about 1, 5, 20
 * and 50 MB from text on the machine (bench-scale-corpus.ts) and for each, every step in a fresh
 * process (bench-scale-child.ts): trains it through POST /api/train in parts of about 0.9 MB into
 * an embedded store, then starts a cold instance on that store and on Redis through the Upstash
 * REST bridge of the tests, and answers. Prints one table with the growth from each size to the
 * next, then every figure as one JSON line. `BENCH_SCALE_SIZES` (MB, comma-separated) picks the
 * sizes; `LM_SNAPSHOT_BYTES`, `LM_SNAPSHOT_EVERY` and `MAX_CORPUS_BYTES` pass to the service
 * (MAX_CORPUS_BYTES defaults to 1 GB here, so that no size is refused). Every step runs with the
 * memory settings of `npm start` unless `BENCH_SCALE_RUNTIME=default`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startRedisServer } from '../tests/support/redis-server.js';
import { startUpstashBridge } from '../tests/support/upstash-bridge.js';
import { buildCorpus, prefixOf } from './bench-scale-corpus.js';
import { trainingParts } from './bench-services.js';

const CHILD = resolve(import.meta.dirname, 'bench-scale-child.ts');
const SIZES_MB = (process.env.BENCH_SCALE_SIZES ?? '1,5,20,50').split(',').map(Number);
/**
 * The memory settings `npm start` runs with and `docs/scaling.md` tells deployments to set
 * (`scripts/allocator.ts`); `BENCH_SCALE_RUNTIME=default` measures glibc's and Node's defaults.
 */
const RUNTIME: Record<string, string> =
  process.env.BENCH_SCALE_RUNTIME === 'default'
    ? {}
    : { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', NODE_OPTIONS: '--max-semi-space-size=16' };

/** Longest a step may take before the benchmark gives up on it. */
const STEP_TIMEOUT_MS = 15 * 60_000;

interface TrainFigures {
  bytes: number;
  parts: number;
  seconds: number;
  mbPerSecond: number;
  mbPerCpuSecond: number;
  peakRss: number;
  snapshotBytes: number;
  chunks: number;
  snapshotChunks: number;
  /** Bytes a cold start replays as training left the store (before the quiet-time snapshot). */
  tailBytes: number;
  longestBlockMs: number;
  snapshots: Record<string, number>[];
  refused?: string;
}

interface ColdFigures {
  firstAnswerMs: number;
  rssAfter: number;
  replyP50Ms: number;
  peakRss: number;
}

interface DeleteFigures {
  documents: number;
  deletedBytes: number;
  deleteMs: number;
  deleteCpuMs: number;
  firstAnswerAfterMs: number;
  /** The snapshot write after the delete (the deleting instance's). */
  snapshotAfterMs?: number;
  rssBefore: number;
  rssAfter: number;
  peakRss: number;
  peakBefore: number;
}

function step<T>(args: string[]): Promise<T> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
      env: { MAX_CORPUS_BYTES: String(1024 ** 3), ...RUNTIME, ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code === 0) done(JSON.parse(line) as T);
      else fail(new Error(`${args[0]} ${args[1] ?? ''}: exited ${code ?? signal}`));
    });
  });
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`);

function withGrowth(values: number[], format: (value: number) => string): string[] {
  return values.map((value, i) =>
    i === 0 || !values[i - 1] ? format(value) : `${format(value)} (×${(value / values[i - 1]).toFixed(1)})`,
  );
}

function printTable(
  rows: {
    size: number;
    train: TrainFigures;
    embedded: ColdFigures;
    tail: ColdFigures;
    upstash?: ColdFigures;
  }[],
) {
  type Row = (typeof rows)[number];
  /** A column of figures with the growth from each size to the next. */
  const growing = (name: string, pick: (row: Row) => number, format: (value: number) => string) =>
    [name, withGrowth(rows.map(pick), format)] as [string, string[]];
  const columns: [string, string[]][] = [
    growing('corpus', (row) => row.train.bytes, mb),
    [
      'train MB/s (per CPU-s)',
      rows.map((row) => `${row.train.mbPerSecond.toFixed(2)} (${row.train.mbPerCpuSecond.toFixed(2)})`),
    ],
    growing('peak RSS training', (row) => row.train.peakRss, mb),
    growing('snapshot', (row) => row.train.snapshotBytes, mb),
    [
      'longest snapshot block',
      rows.map((row) => ms(Math.max(0, ...row.train.snapshots.map((s) => s.blockMs ?? 0)))),
    ],
    ['tail replayed', rows.map((row) => mb(row.train.tailBytes))],
    growing('cold→answer embedded, tail', (row) => row.tail.firstAnswerMs, ms),
    growing('RSS after', (row) => row.tail.rssAfter, mb),
    ['cold→answer Upstash, tail', rows.map((row) => (row.upstash ? ms(row.upstash.firstAnswerMs) : 'n/a'))],
    ['RSS after (Upstash)', rows.map((row) => (row.upstash ? mb(row.upstash.rssAfter) : 'n/a'))],
    growing('cold→answer embedded, quiet snapshot', (row) => row.embedded.firstAnswerMs, ms),
    growing('RSS after (quiet)', (row) => row.embedded.rssAfter, mb),
    ['reply p50', rows.map((row) => ms(row.embedded.replyP50Ms))],
  ];
  const widths = columns.map(([name, cells]) => Math.max(name.length, ...cells.map((cell) => cell.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ');
  console.log(line(columns.map(([name]) => name)));
  console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (let r = 0; r < rows.length; r++) console.log(line(columns.map(([, cells]) => cells[r])));
}

/** What deleting one document costs at each size (docs/scaling.md#deleting-a-document). */
function printDeleteTable(
  rows: { size: number; deleted?: DeleteFigures; coldAfterDelete?: ColdFigures }[],
): void {
  const measured = rows.filter((row) => row.deleted);
  if (measured.length === 0) return;
  console.log('');
  console.log(
    '| corpus | delete (warm instance, rebuild) | its CPU time | first answer after | RSS before → after | peak RSS during | cold start after the delete | RSS after it |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const { size, deleted, coldAfterDelete } of measured) {
    const d = deleted!;
    console.log(
      `| ${size} MB | ${ms(d.deleteMs)} | ${ms(d.deleteCpuMs)} | ${ms(d.firstAnswerAfterMs)} | ${mb(d.rssBefore)} → ${mb(d.rssAfter)} | ${mb(d.peakRss)} | ${coldAfterDelete ? ms(coldAfterDelete.firstAnswerMs) : '–'} | ${coldAfterDelete ? mb(coldAfterDelete.rssAfter) : '–'} |`,
    );
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const largest = Math.max(...SIZES_MB) * 1e6;
  const runtime = Object.entries(RUNTIME).map(([name, value]) => `${name}=${value}`);
  console.log(`runtime: ${runtime.length > 0 ? runtime.join(' ') : 'glibc and Node defaults'}`);
  console.error(`building a corpus of up to ${mb(largest)} from text on this machine ...`);
  const corpus = buildCorpus(largest);
  let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  try {
    redis = await startRedisServer();
  } catch {
    console.error('redis-server not found: the Upstash cold start is left out');
  }
  const bridge = redis ? await startUpstashBridge(redis.url) : undefined;
  const rows = [];
  try {
    for (const size of SIZES_MB) {
      // Cut into parts here, so the process that trains holds one part at a time, as a server does.
      const partsDir = join(work, `parts-${size}`);
      mkdirSync(partsDir, { recursive: true });
      trainingParts(prefixOf(corpus, size * 1e6)).forEach((part, i) => {
        writeFileSync(join(partsDir, `part-${String(i + 1).padStart(5, '0')}.txt`), part);
      });
      const dataDir = join(work, `data-${size}`);
      const tailDir = join(work, `tail-${size}`);
      console.error(`${size} MB: training ...`);
      const train = await step<TrainFigures>(['train', partsDir, dataDir, tailDir]);
      console.error(`${size} MB: cold start on the embedded store, tail to replay ...`);
      const tail = await step<ColdFigures>(['cold', 'embedded', tailDir]);
      console.error(`${size} MB: cold start on the embedded store after the quiet-time snapshot ...`);
      const embedded = await step<ColdFigures>(['cold', 'embedded', dataDir]);
      let upstash: ColdFigures | undefined;
      if (bridge) {
        const token = await bridge.allocateDatabase();
        await step(['copy', tailDir, bridge.url, token]);
        console.error(`${size} MB: cold start on Upstash (bridge) ...`);
        upstash = await step<ColdFigures>(['cold', 'upstash', bridge.url, token]);
      }
      let deleted: DeleteFigures | undefined;
      let coldAfterDelete: ColdFigures | undefined;
      if (process.env.BENCH_SCALE_DELETE !== 'off') {
        console.error(`${size} MB: a warm instance deletes a document ...`);
        deleted = await step<DeleteFigures>(['delete', dataDir]);
        console.error(
          `${size} MB: cold start after the delete (from the snapshot the deleting instance wrote) ...`,
        );
        coldAfterDelete = await step<ColdFigures>(['cold', 'embedded', dataDir]);
      }
      rows.push({ size, train, embedded, tail, upstash, deleted, coldAfterDelete });
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(tailDir, { recursive: true, force: true });
      rmSync(partsDir, { recursive: true, force: true });
    }
  } finally {
    await bridge?.close();
    await redis?.stop();
    rmSync(work, { recursive: true, force: true });
  }
  printTable(rows);
  printDeleteTable(rows);
  console.log(JSON.stringify(rows));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
