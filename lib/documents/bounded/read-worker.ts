import { parentPort, workerData } from 'node:worker_threads';
import type { ReadLimits } from './limits.js';
import { type ReadJob, runReadJob } from './read-job.js';

/** The document read worker's entry: one job in, one outcome out (see read-bounded.ts). */
const { job, limits } = workerData as { job: ReadJob; limits: ReadLimits };
parentPort?.postMessage(await runReadJob(job, limits));
