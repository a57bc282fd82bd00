import {
  acceptsEventStream,
  json,
  type MethodHandler,
  readJson,
  streamReply,
  validate,
} from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import { planReplyLog } from '../questions/index.js';
import type { Services } from '../services/index.js';
import { scopedSessionId, sessionHeaders } from '../sessions/index.js';
import { signedInUser } from './identity.js';
import { imageSourceOf, readChatImage } from './image-input.js';
import { respondToChat } from './respond.js';
import { CHAT_BODY_LIMIT_BYTES, chatRequestSchema } from './schema.js';

/** POST /api/chat (Variant A). */
export function chatHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      const { config } = current;
      return underClientLimit(current, request, async (caller) => {
        const body = validate(chatRequestSchema, await readJson(request, CHAT_BODY_LIMIT_BYTES));
        // The owner's Authorization is the owner's proof, not a visitor's ID token.
        const user = caller.owner ? undefined : await signedInUser(request, current.verifier);
        body.sessionId = scopedSessionId(body.sessionId, {
          userSubject: user?.subject,
          address: current.clientAddress(request),
        });
        const image = await readChatImage(current, imageSourceOf(body));
        const limit = user || caller.owner ? config.SESSION_LIMIT_SIGNED_IN : config.SESSION_LIMIT_FREE;
        const log = planReplyLog(current, body.message);
        if (body.stream ?? acceptsEventStream(request)) {
          let counted: Record<string, string> = {};
          const onSession = (sessionLimit: number, remaining: number) => {
            counted = sessionHeaders(sessionLimit, remaining);
          };
          return streamReply(
            (onDelta) =>
              respondToChat(current, body, { limit, image, onDelta, onSession, record: log.write }),
            {
              body: (outcome) => ({ ...outcome.body, ...log.fields(outcome.body.sources) }),
              lateHeaders: () => counted,
              signal: request.signal,
            },
          );
        }
        const outcome = await respondToChat(current, body, { limit, image, record: log.write });
        return json(
          { ...outcome.body, ...log.fields(outcome.body.sources) },
          200,
          sessionHeaders(outcome.limit, outcome.remaining),
        );
      });
    },
  };
}
