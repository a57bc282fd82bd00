import { json, type MethodHandler, readJson, validate } from '../http';
import { underClientLimit } from '../limits';
import type { Services } from '../services';
import { sessionHeaders } from '../sessions';
import { signedInUser } from './identity';
import { readChatImage } from './image-input';
import { respondToChat } from './respond';
import { CHAT_BODY_LIMIT_BYTES, chatRequestSchema } from './schema';

/** POST /api/chat (Variant A). */
export function chatHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      const { config } = current;
      return underClientLimit(
        current.limiter,
        request,
        { failOpen: config.RATE_LIMIT_FAIL_OPEN },
        async () => {
          const body = validate(chatRequestSchema, await readJson(request, CHAT_BODY_LIMIT_BYTES));
          const user = await signedInUser(request, current.verifier);
          const image = body.imageBase64 ? await readChatImage(body.imageBase64) : undefined;
          const limit = user ? config.SESSION_LIMIT_SIGNED_IN : config.SESSION_LIMIT_FREE;
          const outcome = await respondToChat(current, body, { limit, image });
          return json(outcome.body, 200, sessionHeaders(outcome.limit, outcome.remaining));
        },
      );
    },
  };
}
