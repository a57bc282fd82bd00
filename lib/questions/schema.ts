import * as v from 'valibot';

/** Longest comment a visitor may leave with a rating. */
export const MAX_COMMENT_CHARS = 1000;

/** A replyId as the ways in hand them out (`reply-…`, or /api/v1's `chatcmpl-…`). */
export const replyIdSchema = v.pipe(
  v.string('must be a string'),
  v.regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be the replyId a reply carried'),
);

/** The body of POST /api/feedback. */
export const feedbackRequestSchema = v.object({
  replyId: replyIdSchema,
  rating: v.picklist(['up', 'down'], 'must be "up" or "down"'),
  comment: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.trim(),
      v.maxLength(MAX_COMMENT_CHARS, `must be at most ${MAX_COMMENT_CHARS} characters`),
    ),
  ),
});

export type FeedbackRequest = v.InferOutput<typeof feedbackRequestSchema>;

/** The body of a 200 from POST /api/feedback. */
export const feedbackResponseSchema = v.object({
  ok: v.literal(true),
  replyId: v.string(),
  rating: v.picklist(['up', 'down']),
});

export type FeedbackResponse = v.InferOutput<typeof feedbackResponseSchema>;

/** The query of GET /api/admin/questions. */
export const questionsQuerySchema = v.object({
  kind: v.optional(
    v.picklist(['unanswered', 'disliked', 'top'], 'must be "unanswered", "disliked" or "top"'),
    'top',
  ),
  days: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'must be a whole number of days'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(365, 'must be at most 365'),
    ),
  ),
});

const loggedSourceSchema = v.object({
  title: v.optional(v.string()),
  section: v.optional(v.string()),
  url: v.optional(v.string()),
  page: v.optional(v.number()),
  text: v.string(),
});

/** The body of a 200 from GET /api/admin/questions. */
export const questionsResponseSchema = v.object({
  kind: v.picklist(['unanswered', 'disliked', 'top']),
  days: v.number(),
  /** False with QUESTION_LOG=off: nothing is logged, the lists are empty. */
  logging: v.boolean(),
  questions: v.array(
    v.object({
      question: v.string(),
      count: v.number(),
      lastAskedAt: v.string(),
      reply: v.string(),
      sources: v.array(loggedSourceSchema),
      up: v.number(),
      down: v.number(),
      comments: v.array(v.string()),
    }),
  ),
  /** For the owner: how to teach the service what it could not answer. */
  howToTeach: v.string(),
  /** Answered and unanswered replies per UTC day, oldest first. */
  perDay: v.array(v.object({ date: v.string(), answered: v.number(), unanswered: v.number() })),
});

export type QuestionsResponse = v.InferOutput<typeof questionsResponseSchema>;
