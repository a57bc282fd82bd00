import { HttpError } from '../http/index.js';
import type { Store } from '../store/index.js';
import { type DocumentTrainAnswer, trainDocument } from './documents.js';
import type { ModelKeeper } from './model-keeper.js';
import type { TrainPending } from './schema.js';
import type { TrainInput } from './train-document.js';

/** Parts of an upload that never completes are dropped this long after its last part arrived. */
export const PARTS_TTL_SECONDS = 60 * 60;

/** What a part that does not complete its document answers (202). */
export type PendingPart = TrainPending;

const partsKey = (documentId: string, sha256: string) => `train:parts:${sha256}:${documentId}`;

/**
 * One part of a document larger than a request (the same `documentId` and whole-file `sha256` on
 * every part). Parts wait in the store, under the document's id and hash, until the last one is
 * there; then the document is trained from all of them at once, so they go live together and the
 * old version serves until then. A part whose document is already stored with this hash answers
 * `unchanged` (the client sends no more). The same part again with other text is 422
 * `idempotency_conflict`; the same part again with the same text is harmless.
 */
export async function trainPart(
  keeper: ModelKeeper,
  store: Store,
  input: TrainInput & { part: { part: number; parts: number } },
): Promise<DocumentTrainAnswer | PendingPart> {
  const { documentId } = input.document;
  const { part, parts } = input.part;
  const current = await keeper.document(documentId);
  if (current?.sha256 === input.sha256) {
    return { ok: true, tokens: 0, vocabSize: await keeper.vocabSize(), documentId, status: 'unchanged' };
  }
  const key = partsKey(documentId, input.sha256);
  const received = `${key}:received`;
  const field = `part:${part}`;
  const [heldParts, earlier] = await store.batch().hget(key, 'parts').hget(key, field).exec();
  if (heldParts !== null && Number(heldParts) !== parts) {
    throw new HttpError(
      'idempotency_conflict',
      `parts: this upload of ${JSON.stringify(documentId)} was started with ${heldParts} parts, not ${parts}; start again with a new content hash, or send the same split.`,
      { field: 'parts' },
    );
  }
  if (earlier !== null && earlier !== input.document.text) {
    throw new HttpError(
      'idempotency_conflict',
      `part ${part} of ${JSON.stringify(documentId)} was already sent with other text for the same sha256; retrying will not help.`,
      { field: 'part' },
    );
  }
  // Each part is written once and only counted here; the texts are read back once, when all are in.
  const batch = store.batch();
  if (earlier === null)
    batch.hset(key, {
      parts: String(parts),
      [field]: input.document.text,
      [`bytes:${part}`]: String(input.bytes),
    });
  batch
    .expire(key, PARTS_TTL_SECONDS)
    .sadd(received, String(part))
    .expire(received, PARTS_TTL_SECONDS)
    .scard(received);
  const results = await batch.exec();
  if (Number(results[results.length - 1]) < parts) return { documentId, status: 'pending', part, parts };
  const held = await store.hgetall(key);
  const texts: string[] = [];
  let bytes = 0;
  for (let k = 1; k <= parts; k++) {
    const text = held[`part:${k}`];
    if (text === undefined) return { documentId, status: 'pending', part, parts };
    texts.push(text);
    bytes += Number(held[`bytes:${k}`] ?? 0);
  }
  const answer = await trainDocument(keeper, store, {
    document: { ...input.document, text: texts.join('') },
    sha256: input.sha256,
    bytes,
  });
  await store.del(key, received).catch(() => 0);
  return answer;
}
