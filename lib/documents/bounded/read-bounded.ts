import { Worker } from 'node:worker_threads';
import { HttpError } from '../../http/errors.js';
import { logError } from '../../log/index.js';
import type { ReadLimits } from './limits.js';
import { type ReadJob, type ReadOutcome, runReadJob } from './read-job.js';
import { refusalError } from './refusal.js';

/** Heap a read worker may use; past it V8 stops the worker, not the server. */
const WORKER_HEAP_MB = 192;
/**
 * What a read may add to the whole process's memory (the heap above, plus buffers outside it such
 * as pdf.js's decoded streams) before the worker is stopped; reads run one at a time, so the
 * growth is the read's own.
 */
const READ_MEMORY_BUDGET_BYTES = 256 * 1024 * 1024;
const MEMORY_POLL_MS = 20;
/**
 * Smaller than the main thread's stack (about 1 MB), so a document that reads in the worker
 * reads on a request's thread too.
 */
const WORKER_STACK_MB = 0.5;

/**
 * Reads a document in a worker thread under the read limits: a deadline (the worker is stopped at
 * it), a heap cap, a watch on the process's memory, and the readers' own bounds. One read at a
 * time per instance; the request's event loop keeps serving meanwhile. Returns the document's
 * text (a PDF's extracted text); throws HttpError 413/422 naming the bound hit, or 400 for a PDF
 * that cannot be read. The library's own message goes to the log, never to the response.
 */
export async function readBounded(job: ReadJob, limits: ReadLimits): Promise<string> {
  if (waiting >= MAX_WAITING_READS) {
    throw new HttpError(
      'reader_busy',
      `Too many documents are waiting to be read on this server; try again in ${BUSY_RETRY_SECONDS} s.`,
      { retryAfter: BUSY_RETRY_SECONDS },
      { 'Retry-After': String(BUSY_RETRY_SECONDS) },
    );
  }
  waiting++;
  const run = queue.then(() => runInWorker(job, limits));
  queue = run.catch(() => {});
  const outcome = await run.finally(() => waiting--);
  if (outcome.ok) return outcome.text ?? (job.kind === 'text' ? job.text : '');
  if (outcome.detail !== undefined) {
    logError('document_refused', new Error(outcome.detail), { limit: outcome.refusal.limit, kind: job.kind });
  }
  throw refusalError(outcome.refusal, job.kind === 'pdf' ? 'PDF' : 'document');
}

let queue: Promise<unknown> = Promise.resolve();
let waiting = 0;
/**
 * Reads queued (the running one included) before a new one is refused with 503: each may take
 * the whole deadline, so a longer queue would only make its last callers time out.
 */
const MAX_WAITING_READS = 8;
const BUSY_RETRY_SECONDS = 5;
let inlineLogged = false;

/**
 * Where worker threads cannot be started, the read still runs under the readers' own bounds
 * (pages, inflated bytes, nesting, text), on this thread and without the deadline; said once in
 * the log.
 */
async function runInline(job: ReadJob, limits: ReadLimits, error: unknown): Promise<ReadOutcome> {
  if (!inlineLogged) {
    inlineLogged = true;
    logError('document_worker_unavailable', error);
  }
  return runReadJob(job, limits);
}

/**
 * The reader kept between reads: starting a worker and loading the readers (marked, htmlparser2,
 * pdf.js; and tsx when run from source) costs about a quarter of a second, more than reading a
 * page, so a folder of 150 files spent most of its time starting workers. A worker that broke a
 * bound (the deadline, the heap, the memory watch) or failed is stopped and never reused; an idle
 * one is stopped after `IDLE_WORKER_MS` and never keeps the process alive.
 */
let idleWorker: { worker: Worker; timer: ReturnType<typeof setTimeout> } | undefined;
const IDLE_WORKER_MS = 30_000;
/** Growth of the process's memory during a read past which its worker is not kept. */
const KEEP_GROWTH_BYTES = 32 * 1024 * 1024;

let workersStarted = 0;
/** How many read workers this process has started (for tests and diagnostics: a kept worker is not counted again). */
export function readWorkersStarted(): number {
  return workersStarted;
}

/** The idle reader, or a new one (throws where worker threads cannot be started). */
function takeWorker(): Worker {
  if (idleWorker) {
    const { worker, timer } = idleWorker;
    idleWorker = undefined;
    clearTimeout(timer);
    worker.ref();
    return worker;
  }
  const worker = new Worker(WORKER_CODE, {
    eval: true,
    workerData: { module: READ_JOB_MODULE.href, typescript: TYPESCRIPT_LOADER },
    resourceLimits: {
      maxOldGenerationSizeMb: WORKER_HEAP_MB,
      maxYoungGenerationSizeMb: 16,
      stackSizeMb: WORKER_STACK_MB,
    },
  });
  workersStarted++;
  return worker;
}

/** Keeps a worker that read within every bound for the next read (reads run one at a time). */
function keepWorker(worker: Worker): void {
  worker.unref();
  const timer = setTimeout(() => {
    if (idleWorker?.worker === worker) idleWorker = undefined;
    void worker.terminate();
  }, IDLE_WORKER_MS);
  timer.unref();
  idleWorker = { worker, timer };
}

function runInWorker(job: ReadJob, limits: ReadLimits): Promise<ReadOutcome> {
  return new Promise((resolve) => {
    const before = process.memoryUsage.rss();
    let worker: Worker;
    try {
      worker = takeWorker();
    } catch (error) {
      resolve(runInline(job, limits, error));
      return;
    }
    let settled = false;
    const settle = (outcome: ReadOutcome, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearInterval(watch);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reusable) keepWorker(worker);
      else void worker.terminate();
      resolve(outcome);
    };
    const deadline = setTimeout(
      () => settle({ ok: false, refusal: { limit: 'DOCUMENT_READ_TIMEOUT_MS', max: limits.timeoutMs } }),
      limits.timeoutMs,
    );
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - before > READ_MEMORY_BUDGET_BYTES) {
        settle({ ok: false, refusal: { limit: 'memory' } });
      }
    }, MEMORY_POLL_MS);
    // A read that went well is kept for the next, unless it left the worker holding much memory
    // (a large document's heap is given back at once, not after the idle time); a refusal, a
    // broken bound or a failure stops it, so a hostile document never shares a worker.
    const onMessage = (outcome: ReadOutcome) =>
      settle(outcome, outcome.ok && process.memoryUsage.rss() - before < KEEP_GROWTH_BYTES);
    const onError = (error: Error & { code?: string }) =>
      settle(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { ok: false, refusal: { limit: 'memory' }, detail: error.message }
          : { ok: false, refusal: { limit: 'unreadable' }, detail: `${error.name}: ${error.message}` },
      );
    const onExit = (code: number) =>
      settle({ ok: false, refusal: { limit: 'unreadable' }, detail: `read worker exited with ${code}` });
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ job, limits });
  });
}

/**
 * The worker runs `runReadJob` from read-job's own module, the one this file imports (so a build
 * that bundles or compiles this file keeps it): a job in, its outcome out, for as long as it is
 * kept. Run from source (tsx, vitest) that module is TypeScript, and the worker loads tsx to read it.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const READ_JOB_MODULE = new URL(FROM_SOURCE ? './read-job.ts' : './read-job.js', import.meta.url);
const TYPESCRIPT_LOADER = FROM_SOURCE ? import.meta.resolve('tsx/esm/api') : undefined;
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const reader = (async () => {
  if (workerData.typescript) (await import(workerData.typescript)).register();
  return (await import(workerData.module)).runReadJob;
})();
parentPort.on('message', async ({ job, limits }) => {
  const runReadJob = await reader;
  parentPort.postMessage(await runReadJob(job, limits));
});
`;
