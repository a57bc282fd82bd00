import { randomUUID } from 'node:crypto';
import { HttpError } from '../http/index.js';
import { logError } from '../log/index.js';
import type { Store } from '../store/index.js';

/**
 * How long a claim on a document lives unless renewed. A training renews it every
 * CLAIM_RENEW_MS while it runs (so a slow PDF is never trained twice); a claim left by an instance
 * that crashed frees itself within this many seconds.
 */
export const CLAIM_SECONDS = 10;
const CLAIM_RENEW_MS = 3_000;
const POLL_MS = 50;
/** Seconds a client is told to wait before retrying a document someone else is training. */
export const TRAIN_RETRY_AFTER_SECONDS = 2;

/** A held claim: release it when done (renewal stops). */
export interface DocumentClaim {
  release(): Promise<void>;
}

const claimKey = (documentId: string) => `train:claim:${documentId}`;

/**
 * Claims the document `documentId` for one training or delete at a time, on every instance: SET NX
 * with a short expiry, renewed while the work runs. Waits up to `waitMs` for a claim another
 * request holds, then answers 409 `train_in_progress` with Retry-After (worth a retry).
 */
export async function claimDocument(
  store: Store,
  documentId: string,
  waitMs: number,
  now: () => number = Date.now,
): Promise<DocumentClaim> {
  const key = claimKey(documentId);
  const token = randomUUID();
  const deadline = now() + waitMs;
  while (!(await store.set(key, token, { ifAbsent: true, ttlSeconds: CLAIM_SECONDS }))) {
    if (now() >= deadline) {
      throw new HttpError(
        'train_in_progress',
        `The document ${JSON.stringify(documentId)} is being trained or deleted by another request; retry in a few seconds.`,
        { retryAfter: TRAIN_RETRY_AFTER_SECONDS, documentId },
        { 'Retry-After': String(TRAIN_RETRY_AFTER_SECONDS) },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  let released = false;
  const renew = setInterval(() => {
    void (async () => {
      if ((await store.get(key)) === token) await store.expire(key, CLAIM_SECONDS);
    })().catch((error: unknown) => logError('document_claim_not_renewed', error));
  }, CLAIM_RENEW_MS);
  renew.unref?.();
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(renew);
      try {
        if ((await store.get(key)) === token) await store.del(key);
      } catch (error) {
        // It expires by itself within CLAIM_SECONDS.
        logError('document_claim_not_released', error);
      }
    },
  };
}
