import * as v from 'valibot';
import { MAX_MESSAGE_CHARS } from '../chat/index.js';
import { sourceSchema } from '../citations/schema.js';
import { confidenceSchema } from '../pipeline/index.js';
import { openAIModels } from './models.js';

/** Longest earlier message kept as history, in characters. */
export const MAX_HISTORY_MESSAGE_CHARS = 8000;
/** Most messages in one request. */
export const MAX_MESSAGES = 200;

const textPart = v.object({
  type: v.literal('text'),
  text: v.string('must be a string'),
});

const imagePart = v.object({
  type: v.literal('image_url'),
  image_url: v.object({
    url: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty')),
    detail: v.nullish(v.string()),
  }),
});

const textContent = v.union(
  [v.string(), v.array(v.variant('type', [textPart], 'must be a text part { type: "text", text }'))],
  'must be a string or an array of text parts',
);

const userContent = v.union(
  [
    v.string(),
    v.array(
      v.variant('type', [textPart, imagePart], 'must be a text part or an image_url part with a data: URL'),
    ),
  ],
  'must be a string or an array of content parts',
);

const messageSchema = v.variant(
  'role',
  [
    v.object({
      role: v.picklist(['system', 'developer']),
      content: textContent,
      name: v.nullish(v.string()),
    }),
    v.object({ role: v.literal('user'), content: userContent, name: v.nullish(v.string()) }),
    v.object({ role: v.literal('assistant'), content: v.nullish(textContent), name: v.nullish(v.string()) }),
  ],
  'must be a message with role "system", "developer", "user" or "assistant"',
);

const tokenLimit = v.nullish(
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(1, 'must be at least 1'),
  ),
);

/**
 * The body of POST /api/v1/chat/completions: the Chat Completions fields this service honours.
 * Others (top_p, stop, penalties, seed ...) are accepted and ignored, as unknown keys are.
 */
export const chatCompletionRequestSchema = v.object(
  {
    model: v.pipe(v.string('is required and must be a string'), v.nonEmpty('must not be empty')),
    messages: v.pipe(
      v.array(messageSchema, 'must be an array of messages'),
      v.minLength(1, 'must hold at least one message'),
      v.maxLength(MAX_MESSAGES, `must hold at most ${MAX_MESSAGES} messages`),
    ),
    temperature: v.nullish(
      v.pipe(
        v.number('must be a number'),
        v.minValue(0, 'must be between 0 and 2'),
        v.maxValue(2, 'must be between 0 and 2'),
      ),
    ),
    max_tokens: tokenLimit,
    max_completion_tokens: tokenLimit,
    n: v.nullish(v.literal(1, 'must be 1: this service writes one choice')),
    stream: v.nullish(v.boolean('must be true or false')),
    stream_options: v.nullish(
      v.object({ include_usage: v.nullish(v.boolean('must be true or false')) }, 'must be an object'),
    ),
    user: v.nullish(v.pipe(v.string('must be a string'), v.maxLength(256, 'must be at most 256 characters'))),
  },
  'the body must be a JSON object',
);

export type ChatCompletionRequest = v.InferOutput<typeof chatCompletionRequestSchema>;
export type CompletionMessage = ChatCompletionRequest['messages'][number];

export { MAX_MESSAGE_CHARS };

// The response objects, as the OpenAPI document states them (lib/openapi generates it from these).

const modelNameSchema = v.picklist(Object.keys(openAIModels) as [string, ...string[]]);
const countSchema = v.pipe(v.number(), v.integer(), v.minValue(0));
const finishReasonSchema = v.picklist(['stop', 'length']);
const completionIdentity = {
  id: v.pipe(v.string(), v.regex(/^chatcmpl-[0-9a-f]{32}$/)),
  created: countSchema,
  model: modelNameSchema,
};
const usageSchema = v.object({
  prompt_tokens: countSchema,
  completion_tokens: countSchema,
  total_tokens: countSchema,
});

/** A whole answer: `chat.completion`, with this service's `sources`. */
export const chatCompletionSchema = v.object({
  ...completionIdentity,
  object: v.literal('chat.completion'),
  choices: v.array(
    v.object({
      index: v.literal(0),
      message: v.object({ role: v.literal('assistant'), content: v.string(), refusal: v.optional(v.null()) }),
      logprobs: v.optional(v.null()),
      finish_reason: finishReasonSchema,
    }),
  ),
  usage: usageSchema,
  sources: v.array(sourceSchema),
  /** How sure the reply is, from the evidence: this service's extra field beside OpenAI's. */
  confidence: v.optional(confidenceSchema),
});

/** One event of a stream: `chat.completion.chunk`. */
export const chatCompletionChunkSchema = v.object({
  ...completionIdentity,
  object: v.literal('chat.completion.chunk'),
  choices: v.array(
    v.object({
      index: v.literal(0),
      delta: v.object({ role: v.optional(v.literal('assistant')), content: v.optional(v.string()) }),
      finish_reason: v.nullable(finishReasonSchema),
    }),
  ),
  usage: v.optional(usageSchema),
  sources: v.optional(v.array(sourceSchema)),
});

/** GET /api/v1/models. */
export const modelListSchema = v.object({
  object: v.literal('list'),
  data: v.array(
    v.strictObject({
      id: modelNameSchema,
      object: v.literal('model'),
      created: countSchema,
      owned_by: v.string(),
    }),
  ),
});

/** OpenAI's error shape. */
export const openAIErrorSchema = v.strictObject({
  error: v.strictObject({
    message: v.pipe(v.string(), v.minLength(1)),
    type: v.picklist(['invalid_request_error', 'requests', 'insufficient_quota', 'server_error']),
    param: v.nullable(v.string()),
    code: v.nullable(v.string()),
  }),
});
