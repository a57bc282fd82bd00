import * as v from 'valibot';
import { MAX_REPLY_TOKENS } from '../chat/index.js';

/** Longest conversation id accepted (useChat's own ids are 16 characters). */
export const MAX_CONVERSATION_ID_CHARS = 128;
/** Messages read from a request; a longer conversation keeps its newest ones. */
export const MAX_UI_MESSAGES = 200;

/** One part of a UIMessage: only text and file parts are read, the rest (sources, steps ...) are passed over. */
const partSchema = v.looseObject({
  type: v.string('must be a string'),
  text: v.optional(v.string('must be a string')),
  mediaType: v.optional(v.string('must be a string')),
  url: v.optional(v.string('must be a string')),
});

/** A UIMessage of the AI SDK: `{ id, role, parts }`. */
const messageSchema = v.looseObject({
  id: v.optional(v.string('must be a string')),
  role: v.picklist(['system', 'user', 'assistant'], 'must be "system", "user" or "assistant"'),
  parts: v.array(partSchema, 'must be an array of message parts'),
});

/**
 * The body `DefaultChatTransport` posts (`{ id, messages, trigger, messageId }`), plus the chat
 * options a transport's `body` may add (`modelMode`, `temperature`, `maxTokens`).
 */
export const uiChatRequestSchema = v.object({
  id: v.pipe(
    v.string('must be a string (the conversation id)'),
    v.nonEmpty('must not be empty'),
    v.maxLength(MAX_CONVERSATION_ID_CHARS, `must be at most ${MAX_CONVERSATION_ID_CHARS} characters`),
  ),
  messages: v.pipe(
    v.array(messageSchema, 'must be an array of UI messages'),
    v.nonEmpty('must hold at least the user message'),
  ),
  trigger: v.optional(
    v.picklist(['submit-message', 'regenerate-message'], 'must be "submit-message" or "regenerate-message"'),
  ),
  messageId: v.optional(v.nullable(v.string('must be a string'))),
  modelMode: v.optional(v.picklist(['instant', 'expert', 'apex'], 'must be "instant", "expert" or "apex"')),
  temperature: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.minValue(0, 'must be between 0.0 and 1.0'),
      v.maxValue(1, 'must be between 0.0 and 1.0'),
    ),
  ),
  maxTokens: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(MAX_REPLY_TOKENS, `must be at most ${MAX_REPLY_TOKENS}`),
    ),
  ),
});

export type UIChatRequest = v.InferOutput<typeof uiChatRequestSchema>;
export type UIMessageInput = UIChatRequest['messages'][number];
