import * as v from 'valibot';
import { MAX_REPLY_TOKENS } from '../chat/schema.js';
import { sourceSchema } from '../citations/schema.js';
import { confidenceSchema } from '../pipeline/index.js';

/** Longest message accepted, in characters. */
export const MAX_B_MESSAGE_CHARS = 4000;
/** Longest single history item, in characters. */
export const MAX_HISTORY_ITEM_CHARS = 8000;
/** Body cap of POST /api/api/chat. */
export const VARIANT_B_BODY_LIMIT_BYTES = 256 * 1024;

export const reasoningModes = ['standard', 'think', 'deep_think', 'www'] as const;

const historyItemSchema = v.object(
  {
    role: v.picklist(['user', 'assistant'], 'must be "user" or "assistant"'),
    content: v.pipe(
      v.string('must be a string'),
      v.maxLength(MAX_HISTORY_ITEM_CHARS, `must be at most ${MAX_HISTORY_ITEM_CHARS} characters`),
    ),
  },
  'must be an object with role and content',
);

/** The body of POST /api/api/chat (Variant B). */
export const variantBRequestSchema = v.object(
  {
    message: v.pipe(
      v.string('is required and must be a string'),
      v.trim(),
      v.nonEmpty('must not be empty'),
      v.maxLength(MAX_B_MESSAGE_CHARS, `must be at most ${MAX_B_MESSAGE_CHARS} characters`),
    ),
    mode: v.optional(
      v.picklist(reasoningModes, 'must be one of standard, think, deep_think, www'),
      'standard',
    ),
    history: v.optional(v.array(historyItemSchema, 'must be an array of { role, content }'), []),
    /** Longest reply in tokens, counted as `tokens` counts them; by default the service's cap. */
    maxTokens: v.optional(
      v.pipe(
        v.number('must be a number'),
        v.integer('must be a whole number'),
        v.minValue(1, 'must be at least 1'),
        v.maxValue(MAX_REPLY_TOKENS, `must be at most ${MAX_REPLY_TOKENS}`),
      ),
      MAX_REPLY_TOKENS,
    ),
    /** Server-sent events instead of one JSON body (as `Accept: text/event-stream` asks). */
    stream: v.optional(v.boolean('must be true or false')),
  },
  'the body must be a JSON object',
);

export type VariantBRequest = v.InferOutput<typeof variantBRequestSchema>;
export type ReasoningMode = VariantBRequest['mode'];
export type HistoryItem = VariantBRequest['history'][number];

/** The body of a 200 from POST /api/api/chat, as the OpenAPI document states it. */
export const variantBResponseSchema = v.strictObject({
  response: v.string(),
  mode: v.picklist(reasoningModes),
  tokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
  sources: v.array(sourceSchema),
  /** How sure the reply is, from the evidence (beside the spec's fields). */
  confidence: confidenceSchema,
  /** How the message was read against the conversation ("read as: ..."), when it leaned on it; never inside `response`. */
  thought: v.optional(v.string()),
  /** Names the reply for POST /api/feedback; absent with QUESTION_LOG=off. */
  replyId: v.optional(v.string()),
  /** www only: the article the answer is grounded in. */
  source: v.optional(v.strictObject({ title: v.string(), url: v.string() })),
});

const versionSchema = v.pipe(v.string(), v.regex(/^\d+\.\d+\.\d+$/));

/** The body of a 200 from GET /api/api/health. */
export const variantBHealthSchema = v.strictObject({
  status: v.literal('ok'),
  model: v.string(),
  version: versionSchema,
});

/** The body of a 503 from GET /api/api/health: the store cannot be reached, or there is none. */
export const variantBHealthDegradedSchema = v.strictObject({
  status: v.literal('degraded'),
  model: v.string(),
  version: versionSchema,
  error: v.string(),
  code: v.picklist(['store_unavailable', 'store_unconfigured']),
});
