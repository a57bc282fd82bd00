import { HttpError, json, type MethodHandler, readJson, validate } from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import type { Services } from '../services/index.js';
import { MAX_TRAIN_TEXT_BYTES, TRAIN_BODY_LIMIT_BYTES, trainRequestSchema } from './schema.js';

/** POST /api/train: `{ text }` -> `{ ok, tokens, vocabSize }`. */
export function trainHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const { limiter, config, model } = services();
      return underClientLimit(limiter, request, { failOpen: config.RATE_LIMIT_FAIL_OPEN }, async () => {
        const { text } = validate(trainRequestSchema, await readJson(request, TRAIN_BODY_LIMIT_BYTES));
        const bytes = Buffer.byteLength(text, 'utf8');
        if (bytes > MAX_TRAIN_TEXT_BYTES) {
          throw new HttpError(
            'payload_too_large',
            `text is ${bytes} bytes; send at most 1 MB per request (split a larger corpus into several calls).`,
            { limitBytes: MAX_TRAIN_TEXT_BYTES },
          );
        }
        const result = await model.train(text);
        return json({ ok: true, tokens: result.tokens, vocabSize: result.vocabSize });
      });
    },
  };
}
