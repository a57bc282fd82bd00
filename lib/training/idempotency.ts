import { createHash, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { HttpError } from '../http/index.js';
import { logError } from '../log/index.js';
import type { Store, StoreBatch } from '../store/index.js';
import { trainingKeys } from './keys.js';
import { idempotencyKeySchema, type TrainResponse } from './schema.js';

/** How long the first answer to a key is kept for retries. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a claim lives while its train runs. A claim left by a request that died (or could not
 * release it because the store was down) frees itself after this.
 */
export const IDEMPOTENCY_CLAIM_SECONDS = 60;
/** A retry that finds the first request still running waits this long for its answer. */
const WAIT_FOR_FIRST_MS = 10_000;
const POLL_MS = 50;

/**
 * What a train answered, kept under its Idempotency-Key: the response of POST /api/train, whose
 * document fields a record kept before documents had ids does not hold.
 */
export type TrainAnswer = Omit<TrainResponse, 'documentId' | 'status'> &
  Partial<Pick<TrainResponse, 'documentId' | 'status'>>;

type AnswerExtras = Pick<TrainAnswer, 'documentId' | 'status'>;

type KeyRecord =
  | { state: 'running'; claim: string; fingerprint: string }
  | ({ state: 'done'; fingerprint: string; tokens: number; vocabSize?: number } & AnswerExtras);

/**
 * The `Idempotency-Key` header of a request: undefined when absent, 400 when it is not 1-128
 * visible ASCII characters.
 */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get('idempotency-key');
  if (key === null) return undefined;
  if (!v.is(idempotencyKeySchema, key)) {
    throw new HttpError(
      'validation_failed',
      'Idempotency-Key: must be 1 to 128 visible ASCII characters (a UUID is a good choice)',
      { field: 'Idempotency-Key' },
    );
  }
  return key;
}

/**
 * Runs a train at most once per Idempotency-Key. The first request claims the key (SET NX, short
 * TTL); its train writes the answer under the key in the same transaction as the chunk, so a train
 * that landed always has its answer and one that failed has neither. A retry gets the first answer
 * (`replayed`); a retry while the first still runs waits for it; a claim whose train failed is
 * released, so the retry trains. The same key with another text is a 409.
 */
export async function trainOnce(
  store: Store,
  key: string,
  text: string,
  run: (
    also: (batch: StoreBatch, learned: { tokens: number } & AnswerExtras) => void,
  ) => Promise<TrainAnswer>,
  now: () => number = Date.now,
): Promise<{ answer: TrainAnswer; replayed: boolean }> {
  const storeKey = `idempotency:train:${key}`;
  const fingerprint = createHash('sha256').update(text).digest('hex');
  const claim = randomUUID();
  const deadline = now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const running: KeyRecord = { state: 'running', claim, fingerprint };
    const claimed = await store.set(storeKey, JSON.stringify(running), {
      ifAbsent: true,
      ttlSeconds: IDEMPOTENCY_CLAIM_SECONDS,
    });
    if (claimed) break;
    const found = parse(await store.get(storeKey));
    if (found && found.fingerprint !== fingerprint) {
      throw new HttpError(
        'idempotency_conflict',
        'This Idempotency-Key was already used for a different text; use a new key for a new train (retrying will not help).',
      );
    }
    // A done record gets its vocabulary size a moment after the train lands; a train that failed
    // after landing never adds it, and its retries answer with the size as it is now.
    if (found?.state === 'done' && (found.vocabSize !== undefined || now() >= deadline)) {
      const vocabSize = found.vocabSize ?? (await store.scard(trainingKeys.vocabulary));
      return { answer: { ok: true, tokens: found.tokens, vocabSize, ...extrasOf(found) }, replayed: true };
    }
    // The first request is still running: wait for its answer, up to a point.
    if (now() >= deadline) {
      throw new HttpError(
        'train_in_progress',
        'A train with this Idempotency-Key is still running; retry in a few seconds.',
        { retryAfter: 2 },
        { 'Retry-After': '2' },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }

  let answer: TrainAnswer;
  try {
    answer = await run((batch, learned) => {
      const done: KeyRecord = { state: 'done', fingerprint, tokens: learned.tokens, ...extrasOf(learned) };
      batch.set(storeKey, JSON.stringify(done), { ttlSeconds: IDEMPOTENCY_TTL_SECONDS });
    });
  } catch (error) {
    await release(store, storeKey, claim);
    throw error;
  }
  // The answer with its vocabulary size, for replays (the chunk's write already holds the rest).
  const done: KeyRecord = {
    state: 'done',
    fingerprint,
    tokens: answer.tokens,
    vocabSize: answer.vocabSize,
    ...extrasOf(answer),
  };
  await store
    .set(storeKey, JSON.stringify(done), { ttlSeconds: IDEMPOTENCY_TTL_SECONDS })
    .catch((error: unknown) => logError('idempotency_answer_not_saved', error));
  return { answer, replayed: false };
}

/** Frees the claim when it is still ours and the train did not land, so a retry trains. */
async function release(store: Store, storeKey: string, claim: string): Promise<void> {
  try {
    const found = parse(await store.get(storeKey));
    if (found?.state === 'running' && found.claim === claim) await store.del(storeKey);
  } catch (error) {
    logError('idempotency_claim_not_released', error);
  }
}

function parse(raw: string | null): KeyRecord | undefined {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as KeyRecord;
  } catch {
    return undefined;
  }
}

function extrasOf(from: AnswerExtras): AnswerExtras {
  return {
    ...(from.documentId !== undefined ? { documentId: from.documentId } : {}),
    ...(from.status !== undefined ? { status: from.status } : {}),
  };
}
