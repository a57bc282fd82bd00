import {
  CHAT_BODY_LIMIT_BYTES,
  type ChatOutcome,
  chatRequestSchema,
  readChatImage,
  respondToChat,
  signedInUser,
} from '../chat/index.js';
import { type MethodHandler, readJson, validate } from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import { type LoggedReplyFields, planReplyLog } from '../questions/index.js';
import type { Services } from '../services/index.js';
import { sessionHeaders } from '../sessions/index.js';
import { readUIConversation } from './conversation.js';
import { conversationSessionId } from './conversation-session.js';
import { MAX_UI_MESSAGES, uiChatRequestSchema } from './schema.js';
import { streamUIMessage, type UIStreamEnding } from './stream.js';

/**
 * POST /api/ui/chat: the AI SDK's UI message stream for `useChat` and `DefaultChatTransport`.
 * The request's `id` is the conversation (its allowance counted like a session's, per client),
 * its `messages` the history, as Variant B's `history` is.
 */
export function uiChatHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      const { config } = current;
      return underClientLimit(current, request, async () => {
        const body = validate(uiChatRequestSchema, await readJson(request, CHAT_BODY_LIMIT_BYTES));
        const conversation = readUIConversation(body.messages.slice(-MAX_UI_MESSAGES));
        const user = await signedInUser(request, current.verifier);
        const chat = validate(chatRequestSchema, {
          message: conversation.message,
          ...(body.modelMode ? { modelMode: body.modelMode } : {}),
          ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
          ...(body.maxTokens !== undefined ? { maxTokens: body.maxTokens } : {}),
        });
        chat.sessionId = conversationSessionId(body.id, {
          userSubject: user?.subject,
          address: current.clientAddress(request),
        });
        const image = conversation.imageDataUrl
          ? await readChatImage(current, { base64: conversation.imageDataUrl })
          : undefined;
        const limit = user ? config.SESSION_LIMIT_SIGNED_IN : config.SESSION_LIMIT_FREE;
        const log = planReplyLog(current, chat.message);
        let counted: Record<string, string> = {};
        const onSession = (sessionLimit: number, remaining: number) => {
          counted = sessionHeaders(sessionLimit, remaining);
        };
        return streamUIMessage(
          { lateHeaders: () => counted, signal: request.signal },
          async (onDelta) => {
            const outcome = await respondToChat(current, chat, {
              limit,
              image,
              history: conversation.history,
              onDelta,
              onSession,
              record: log.write,
            });
            return { outcome, logged: log.fields(outcome.body.sources) };
          },
          endingOf,
        );
      });
    },
  };
}

function endingOf({ outcome, logged }: { outcome: ChatOutcome; logged: LoggedReplyFields }): UIStreamEnding {
  const { thought, usedExternal, vocabSize, confidence } = outcome.body;
  return {
    sources: logged.sources,
    finishReason: outcome.cut ? 'length' : 'stop',
    metadata: {
      ...(logged.replyId ? { replyId: logged.replyId } : {}),
      ...(thought ? { thought } : {}),
      usedExternal,
      vocabSize,
      confidence,
    },
  };
}
