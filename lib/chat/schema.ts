import * as v from 'valibot';
import { sourceSchema } from '../citations/schema.js';
import { confidenceSchema } from '../pipeline/index.js';
import { sessionIdSchema } from '../sessions/schema.js';

/** Longest message accepted, in characters. */
export const MAX_MESSAGE_CHARS = 4000;
/** Largest maxTokens accepted. */
export const MAX_REPLY_TOKENS = 400;
/** Body cap of POST /api/chat: a 5 MB image as base64 plus the rest. */
export const CHAT_BODY_LIMIT_BYTES = 7 * 1024 * 1024 + 64 * 1024;

/** The body of POST /api/chat (Variant A). */
export const chatRequestSchema = v.object({
  message: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.nonEmpty('must not be empty'),
    v.maxLength(MAX_MESSAGE_CHARS, `must be at most ${MAX_MESSAGE_CHARS} characters`),
  ),
  sessionId: v.optional(sessionIdSchema, 'default'),
  userId: v.optional(
    v.pipe(v.string('must be a string'), v.maxLength(128, 'must be at most 128 characters')),
  ),
  modelMode: v.optional(
    v.picklist(['instant', 'expert', 'apex'], 'must be "instant", "expert" or "apex"'),
    'expert',
  ),
  raw: v.optional(v.boolean('must be true or false')),
  imageBase64: v.optional(
    v.pipe(v.string('must be a base64 string or a data: URL'), v.nonEmpty('must not be empty')),
  ),
  /** An uploaded image, by the id POST /api/upload returned (instead of sending it again). */
  imageId: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.regex(/^[0-9a-f]{64}$/, 'must be the 64 hex digits POST /api/upload returned'),
    ),
  ),
  temperature: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.minValue(0, 'must be between 0.0 and 1.0'),
      v.maxValue(1, 'must be between 0.0 and 1.0'),
    ),
    0.7,
  ),
  maxTokens: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(MAX_REPLY_TOKENS, `must be at most ${MAX_REPLY_TOKENS}`),
    ),
    80,
  ),
  /** Server-sent events instead of one JSON body (as `Accept: text/event-stream` asks). */
  stream: v.optional(v.boolean('must be true or false')),
});

export type ChatRequest = v.InferOutput<typeof chatRequestSchema>;
export type ModelMode = ChatRequest['modelMode'];

/** The body of a 200 from POST /api/chat (its type, `ChatResponse`, is what the handler answers). */
export const chatResponseSchema = v.strictObject({
  response: v.string(),
  thought: v.optional(v.string()),
  vocabSize: v.pipe(v.number(), v.integer(), v.minValue(0)),
  usedExternal: v.boolean(),
  /** The passages the reply used; empty when it used none (chit-chat, "I don't know"). */
  sources: v.array(sourceSchema),
  /** How sure the reply is, from the evidence: `answer`, `nearest` (the closest passage, said so) or `none`. */
  confidence: confidenceSchema,
  /** Names the reply for POST /api/feedback (lib/questions); absent with QUESTION_LOG=off. */
  replyId: v.optional(v.string()),
});

export type ChatResponse = v.InferOutput<typeof chatResponseSchema>;
