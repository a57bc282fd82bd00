import { encodeChunk, readLimitsOf } from '../documents/index.js';
import { HttpError, json, type MethodHandler } from '../http/index.js';
import { type Caller, underClientLimit } from '../limits/index.js';
import type { Services } from '../services/index.js';
import { trainDocument } from './documents.js';
import { idempotencyKeyOf, trainOnce } from './idempotency.js';
import { trainPart } from './parts.js';
import { trainInputOf } from './train-document.js';

/**
 * POST /api/train: `{ text, format?, name?, documentId?, url?, sha256?, part?, parts? }` or a
 * multipart form with a file (.txt, .md, .html, .pdf) and optional `name`, `format`,
 * `documentId`, `url`, `sha256` fields -> `{ ok, tokens, vocabSize, documentId, status }`, status
 * `trained`, `replaced` or `unchanged`; a part that does not complete its document -> 202
 * `{ documentId, status: 'pending', part, parts }`. Documents are identified by id and content
 * hash; the `Idempotency-Key` header still makes a retried train of plain text without an id a
 * no-op that answers what the first one did (`Idempotent-Replayed: true`).
 */
export function trainHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      const { model, store } = current;
      return underClientLimit(current, request, async (caller) => {
        requireTrainAccess(current, caller);
        const idempotencyKey = idempotencyKeyOf(request);
        const input = await trainInputOf(request, readLimitsOf(current.config));
        if (input.part) {
          const answer = await trainPart(model, store, { ...input, part: input.part });
          return json(answer, answer.status === 'pending' ? 202 : 200);
        }
        if (idempotencyKey === undefined || input.namedByClient)
          return json(await trainDocument(model, store, input));
        const { answer, replayed } = await trainOnce(
          store,
          idempotencyKey,
          encodeChunk(input.document),
          (also) => trainDocument(model, store, input, also),
        );
        return json(answer, 200, replayed ? { 'Idempotent-Replayed': 'true' } : {});
      });
    },
  };
}

/** TRAIN_ACCESS=owner: training (text, files, images with train=true) needs the owner's credentials. */
export function requireTrainAccess(services: Pick<Services, 'config'>, caller: Caller): void {
  if (services.config.TRAIN_ACCESS === 'owner' && !caller.owner) {
    throw new HttpError(
      'forbidden',
      "Training on this server is for its owner only (TRAIN_ACCESS=owner): send X-Owner-Email and Authorization: Bearer <ADMIN_TOKEN> (or the owner's sign-in token).",
    );
  }
}
