import { getConfig } from '../config/index.js';
import { storeReachable, storeUnavailableBody } from '../health/index.js';
import {
  acceptsEventStream,
  json,
  type MethodHandler,
  readJson,
  streamReply,
  validate,
} from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import { logReply } from '../questions/index.js';
import { isStoreUnconfigured, type Services, serviceVersion } from '../services/index.js';
import { answeringModelName } from './model-name.js';
import { respondVariantB } from './respond.js';
import { VARIANT_B_BODY_LIMIT_BYTES, variantBRequestSchema } from './schema.js';

/** POST /api/api/chat (Variant B): `{ message, mode?, history? }` -> `{ response, mode, tokens }`. */
export function variantBChatHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      return underClientLimit(current, request, async () => {
        const body = validate(variantBRequestSchema, await readJson(request, VARIANT_B_BODY_LIMIT_BYTES));
        const answer = async (onDelta?: (text: string) => void) => {
          const reply = await respondVariantB(current, body, onDelta);
          return { ...reply, ...(await logReply(current, { ...reply, question: body.message })) };
        };
        if (body.stream ?? acceptsEventStream(request)) {
          return streamReply(answer, { signal: request.signal });
        }
        return json(await answer());
      });
    },
  };
}

/**
 * GET /api/api/health: `{ status, model, version }`; 503 `degraded` when the store cannot be
 * reached, or with the `store_unconfigured` error and code on a Vercel deployment without a store.
 */
export function variantBHealthHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    async GET() {
      let current: Services;
      try {
        current = services();
      } catch (error) {
        if (!isStoreUnconfigured(error)) throw error;
        const model = answeringModelName(getConfig());
        return json({ status: 'degraded', model, version: serviceVersion, ...error.toBody() }, 503);
      }
      const base = { model: answeringModelName(current.config), version: serviceVersion };
      if (await storeReachable(current)) return json({ status: 'ok', ...base });
      return json({ status: 'degraded', ...base, ...storeUnavailableBody() }, 503);
    },
  };
}
