import { type DocumentRecord, publicDocument } from '../documents/index.js';
import { HttpError } from '../http/index.js';
import type { Store, StoreBatch } from '../store/index.js';
import { claimDocument } from './claims.js';
import { type ModelKeeper, STARTER_DOCUMENT_ID } from './model-keeper.js';
import type { DocumentList, TrainResponse } from './schema.js';
import type { TrainInput } from './train-document.js';

/** How long a train waits for another request's claim on the same document before its 409. */
const TRAIN_WAIT_MS = 5_000;
/** How long a delete waits for a training of the same document to finish (it is serialised after it). */
const DELETE_WAIT_MS = 30_000;

export type TrainStatus = TrainResponse['status'];

/** What a train of a document answers. */
export type DocumentTrainAnswer = TrainResponse;

type Also = (batch: StoreBatch, learned: { tokens: number; documentId: string; status: TrainStatus }) => void;

/**
 * Trains a document by its id, one request at a time per id on every instance (a claim): the same
 * content hash again is `unchanged` and learns nothing; new content is `replaced`, the old version
 * forgotten in the same transaction as the new text is written; a new id is `trained`. The first
 * document of the user's own sends the starter guide away in the same transaction.
 */
export async function trainDocument(
  keeper: ModelKeeper,
  store: Store,
  input: Pick<TrainInput, 'document' | 'sha256' | 'bytes'>,
  also?: Also,
): Promise<DocumentTrainAnswer> {
  const id = input.document.documentId;
  const claim = await claimDocument(store, id, TRAIN_WAIT_MS);
  try {
    const [current, starter] = await Promise.all([
      keeper.document(id),
      id === STARTER_DOCUMENT_ID ? undefined : keeper.document(STARTER_DOCUMENT_ID),
    ]);
    if (current?.sha256 === input.sha256) {
      return {
        ok: true,
        tokens: 0,
        vocabSize: await keeper.vocabSize(),
        documentId: id,
        status: 'unchanged',
      };
    }
    const status: TrainStatus = current ? 'replaced' : 'trained';
    const forget: DocumentRecord[] = current ? [current] : [];
    if (starter) forget.push(starter);
    const document = input.document;
    const result = await keeper.train(document, {
      forget,
      record: {
        id,
        name: document.name ?? id,
        format: document.format,
        bytes: input.bytes,
        sha256: input.sha256,
        ...(document.url ? { url: document.url } : {}),
        trainedAt: new Date().toISOString(),
      },
      ...(also ? { also: (batch, learned) => also(batch, { ...learned, documentId: id, status }) } : {}),
    });
    return { ok: true, tokens: result.tokens, vocabSize: result.vocabSize, documentId: id, status };
  } finally {
    await claim.release();
  }
}

/**
 * Deletes a document: waits for a training of the same id to finish (never interleaved with it),
 * then forgets it on this instance before answering; other instances forget it on their next
 * request. 404 `document_not_found` for an id the table does not hold.
 */
export async function deleteDocument(keeper: ModelKeeper, store: Store, id: string): Promise<void> {
  const claim = await claimDocument(store, id, DELETE_WAIT_MS);
  try {
    const current = await keeper.document(id);
    if (!current) {
      throw new HttpError('document_not_found', `No document has the id ${JSON.stringify(id)}.`, {
        documentId: id,
      });
    }
    await keeper.forget([current]);
  } finally {
    await claim.release();
  }
}

/** Largest page of GET /api/admin/documents. */
export const MAX_DOCUMENTS_PAGE = 1000;

/** A page of the document table, ordered by id; `cursor` is the last id of the page before. */
export async function listDocuments(
  keeper: ModelKeeper,
  limit: number,
  cursor?: string,
): Promise<DocumentList> {
  const all = (await keeper.documents()).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const after = cursor === undefined ? all : all.filter((record) => record.id > cursor);
  const page = after.slice(0, limit);
  const more = after.length > page.length;
  return {
    documents: page.map(publicDocument),
    ...(more ? { nextCursor: encodeCursor(page[page.length - 1]!.id) } : {}),
  };
}

const CURSOR_MARK = 'after:';

/** Cursors are opaque to clients: the last id of the page, marked, base64url. */
export function encodeCursor(id: string): string {
  return Buffer.from(CURSOR_MARK + id, 'utf8').toString('base64url');
}

/** The id a cursor from `encodeCursor` names; 400 for anything else. */
export function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = text.slice(CURSOR_MARK.length);
  const valid =
    /^[A-Za-z0-9_-]+$/.test(cursor) &&
    text.startsWith(CURSOR_MARK) &&
    encodeCursor(id) === cursor &&
    id.length >= 1 &&
    id.length <= 200 &&
    !/\p{Cc}/u.test(id);
  if (!valid)
    throw new HttpError('validation_failed', 'cursor: is not one this endpoint gave out', {
      field: 'cursor',
    });
  return id;
}
