import { totalmem } from 'node:os';
import type { Config } from '../config/index.js';
import { HttpError } from '../http/index.js';

/**
 * Memory an instance needs per byte of training text, at the peak of training (the largest need:
 * a snapshot write, one direction of the counts decoded beside the passage index), and before any
 * text. A line above the peaks `npm run bench:scale` measured under glibc's and Node's default
 * settings, which a deployment has unless it sets the ones `npm start` runs with: 262, 428, 790
 * and 1 284 MB at 1, 5, 20 and 50 MB of text (docs/scaling.md).
 */
export const MEMORY_PER_TEXT_BYTE = 24;
export const BASE_MEMORY_BYTES = 300 * 2 ** 20;
/** Share of the memory the ceiling plans to use; the rest is left for requests in flight. */
const HEADROOM = 0.85;
/** The ceiling never falls below this (a tiny machine still learns a little). */
const SMALLEST_CEILING = 1_000_000;

/**
 * Memory this instance may use, in bytes: the function's on AWS Lambda and Vercel
 * (AWS_LAMBDA_FUNCTION_MEMORY_SIZE, in MB), else a container's limit, else the machine's.
 */
export function instanceMemoryBytes(config: Pick<Config, 'AWS_LAMBDA_FUNCTION_MEMORY_SIZE'>): number {
  if (config.AWS_LAMBDA_FUNCTION_MEMORY_SIZE) return config.AWS_LAMBDA_FUNCTION_MEMORY_SIZE * 2 ** 20;
  const machine = totalmem();
  const constrained = process.constrainedMemory();
  return constrained > 0 && constrained < machine ? constrained : machine;
}

/** The largest corpus, in bytes of text, that an instance with `memoryBytes` of memory can train and serve. */
export function corpusCeilingFor(memoryBytes: number): number {
  const room = memoryBytes * HEADROOM - BASE_MEMORY_BYTES;
  return Math.max(SMALLEST_CEILING, Math.floor(room / MEMORY_PER_TEXT_BYTE));
}

/** MAX_CORPUS_BYTES when set, else the ceiling of this instance's memory. */
export function maxCorpusBytesOf(
  config: Pick<Config, 'MAX_CORPUS_BYTES' | 'AWS_LAMBDA_FUNCTION_MEMORY_SIZE'>,
): number {
  return config.MAX_CORPUS_BYTES ?? corpusCeilingFor(instanceMemoryBytes(config));
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** The 413 of a train that would take the corpus from `corpusBytes` past `limitBytes` with `adding` more. */
export function corpusFull(corpusBytes: number, adding: number, limitBytes: number): HttpError {
  return new HttpError(
    'payload_too_large',
    `Training this text (${megabytes(adding)}) would take the corpus from ${megabytes(corpusBytes)} past ` +
      `this server's ceiling of ${megabytes(limitBytes)} (MAX_CORPUS_BYTES, derived from the memory an ` +
      'instance has), so nothing was learned. Give the function more memory, set MAX_CORPUS_BYTES higher ' +
      'if the instances have memory to spare, or reset the model (POST /api/admin/reset-model) and train a ' +
      'smaller corpus.',
    { limitBytes, corpusBytes },
  );
}
