import { encodeChunk, readLimitsOf } from '../documents/index.js';
import { json, type MethodHandler } from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import type { Services } from '../services/index.js';
import { idempotencyKeyOf, type TrainAnswer, trainOnce } from './idempotency.js';
import type { TrainOptions } from './model-keeper.js';
import { trainDocumentOf } from './train-document.js';

/**
 * POST /api/train: `{ text, format?, name? }` or a multipart form with a file (.txt, .md, .html,
 * .pdf) -> `{ ok, tokens, vocabSize }`. With an `Idempotency-Key` header a
 * retried train is a no-op that answers what the first one did (`Idempotent-Replayed: true`).
 */
export function trainHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      const { model, store } = current;
      return underClientLimit(current, request, async () => {
        const idempotencyKey = idempotencyKeyOf(request);
        const document = await trainDocumentOf(request, readLimitsOf(current.config));
        const train = async (also?: TrainOptions['also']): Promise<TrainAnswer> => {
          const result = await model.train(document, { also });
          return { ok: true, tokens: result.tokens, vocabSize: result.vocabSize };
        };
        if (idempotencyKey === undefined) return json(await train());
        const { answer, replayed } = await trainOnce(store, idempotencyKey, encodeChunk(document), train);
        return json(answer, 200, replayed ? { 'Idempotent-Replayed': 'true' } : {});
      });
    },
  };
}
