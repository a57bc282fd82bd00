import { HttpError, json, type MethodHandler, readJson, validate } from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import type { Services } from '../services/index.js';
import { idempotencyKeyOf, type TrainAnswer, trainOnce } from './idempotency.js';
import type { TrainOptions } from './model-keeper.js';
import { MAX_TRAIN_TEXT_BYTES, TRAIN_BODY_LIMIT_BYTES, trainRequestSchema } from './schema.js';

/**
 * POST /api/train: `{ text }` -> `{ ok, tokens, vocabSize }`. With an `Idempotency-Key` header a
 * retried train is a no-op that answers what the first one did (`Idempotent-Replayed: true`).
 */
export function trainHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      const { config, model, store } = current;
      return underClientLimit(current, request, async () => {
        const idempotencyKey = idempotencyKeyOf(request);
        const { text } = validate(trainRequestSchema, await readJson(request, TRAIN_BODY_LIMIT_BYTES));
        const bytes = Buffer.byteLength(text, 'utf8');
        if (bytes > MAX_TRAIN_TEXT_BYTES) {
          throw new HttpError(
            'payload_too_large',
            `text is ${bytes} bytes; send at most 1 MB per request (split a larger corpus into several calls).`,
            { limitBytes: MAX_TRAIN_TEXT_BYTES },
          );
        }
        const train = async (also?: TrainOptions['also']): Promise<TrainAnswer> => {
          const result = await model.train(text, { also });
          return { ok: true, tokens: result.tokens, vocabSize: result.vocabSize };
        };
        if (idempotencyKey === undefined) return json(await train());
        const { answer, replayed } = await trainOnce(store, idempotencyKey, text, train);
        return json(answer, 200, replayed ? { 'Idempotent-Replayed': 'true' } : {});
      });
    },
  };
}
