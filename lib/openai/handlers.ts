import {
  CHAT_BODY_LIMIT_BYTES,
  type ChatOutcome,
  type ChatRequest,
  chatRequestSchema,
  MAX_REPLY_TOKENS,
  readChatImage,
  respondToChat,
} from '../chat/index.js';
import { json, type MethodHandler, readJson, validate } from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import { planReplyLog, type ReplyLogPlan } from '../questions/index.js';
import type { Services } from '../services/index.js';
import { scopedSessionId, sessionHeaders } from '../sessions/index.js';
import { countTokens } from '../text/index.js';
import { apiAccess } from './access.js';
import { completionObject, newCompletion, usageOf } from './completion.js';
import { readConversation } from './conversation.js';
import { modelList, modeOfModel } from './models.js';
import { type ChatCompletionRequest, chatCompletionRequestSchema } from './schema.js';
import { sessionOfUser } from './session.js';
import { type StreamEnding, streamChatCompletion } from './stream.js';

/** Our temperature stops at 1 (the model's own distribution); OpenAI's 1 means the same. */
const MAX_TEMPERATURE = 1;

/** POST /api/v1/chat/completions: OpenAI's Chat Completions on the local chat modes. */
export function chatCompletionsHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    async POST(request) {
      const current = services();
      const access = await apiAccess(request, current);
      return underClientLimit(current, request, async () => {
        const body = validate(chatCompletionRequestSchema, await readJson(request, CHAT_BODY_LIMIT_BYTES));
        const modelMode = modeOfModel(body.model);
        const conversation = readConversation(body.messages);
        const image = await readChatImage(current, conversation.image);
        const chat = chatRequestOf(body, modelMode, conversation.message);
        chat.sessionId = scopedSessionId(chat.sessionId, {
          userSubject: access.subject,
          address: current.clientAddress(request),
        });
        const identity = newCompletion(body.model, current.now());
        const log = planReplyLog(current, chat.message, identity.id);
        const context = { limit: access.limit, image, history: conversation.history, record: log.write };
        const ending = (outcome: ChatOutcome): StreamEnding => endingOf(body, outcome);
        if (body.stream) {
          let counted: Record<string, string> = {};
          const onSession = (limit: number, remaining: number) => {
            counted = sessionHeaders(limit, remaining);
          };
          return streamChatCompletion(
            identity,
            {
              includeUsage: body.stream_options?.include_usage === true,
              lateHeaders: () => counted,
              signal: request.signal,
            },
            async (onDelta) =>
              withCitations(await respondToChat(current, chat, { ...context, onDelta, onSession }), log),
            ending,
          );
        }
        const outcome = withCitations(await respondToChat(current, chat, context), log);
        const end = ending(outcome);
        return json(
          completionObject(identity, {
            text: outcome.body.response,
            ...end,
            confidence: outcome.body.confidence,
          }),
          200,
          sessionHeaders(outcome.limit, outcome.remaining),
        );
      });
    },
  };
}

/** GET /api/v1/models: the three chat modes as models. */
export function modelsHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    async GET(request) {
      await apiAccess(request, services());
      return json(modelList());
    },
  };
}

/** The outcome with its sources cited; the replyId is the completion's id, so nothing else changes. */
function withCitations(outcome: ChatOutcome, log: ReplyLogPlan): ChatOutcome {
  return { ...outcome, body: { ...outcome.body, sources: log.fields(outcome.body.sources).sources } };
}

function chatRequestOf(
  body: ChatCompletionRequest,
  modelMode: ChatRequest['modelMode'],
  message: string,
): ChatRequest {
  // Without a limit an OpenAI model writes until it is done: here, up to the service's cap.
  const requested = body.max_completion_tokens ?? body.max_tokens ?? MAX_REPLY_TOKENS;
  return validate(chatRequestSchema, {
    message,
    modelMode,
    ...(body.user ? { sessionId: sessionOfUser(body.user) } : {}),
    ...(body.temperature != null ? { temperature: Math.min(MAX_TEMPERATURE, body.temperature) } : {}),
    maxTokens: Math.min(MAX_REPLY_TOKENS, requested),
  });
}

/** "length" only when the reply was cut to fit; usage counted as maxTokens counts. */
function endingOf(body: ChatCompletionRequest, outcome: ChatOutcome): StreamEnding {
  const prompt = body.messages.reduce((sum, message) => sum + countTokens(textOf(message.content)), 0);
  const completion = countTokens(outcome.body.response);
  const sources = (outcome.body as { sources?: unknown[] }).sources ?? [];
  return { finishReason: outcome.cut ? 'length' : 'stop', usage: usageOf(prompt, completion), sources };
}

function textOf(content: ChatCompletionRequest['messages'][number]['content']): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
