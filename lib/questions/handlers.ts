import { ownerOnly } from '../admin/index.js';
import { HttpError, json, type MethodHandler, readJson, validate } from '../http/index.js';
import { underClientLimit } from '../limits/index.js';
import type { Services } from '../services/index.js';
import { questionLogOf } from './reply-log.js';
import { answeredPerDay, questionReport } from './report.js';
import {
  type FeedbackResponse,
  feedbackRequestSchema,
  type QuestionsResponse,
  questionsQuerySchema,
} from './schema.js';

/** A feedback body is small: a replyId, a rating and 1,000 characters of comment, even \u-escaped. */
const FEEDBACK_BODY_LIMIT_BYTES = 16 * 1024;

/** For the owner only (never in a visitor's reply): how the unanswered questions get answers. */
export const HOW_TO_TEACH =
  'Teach the service the documents that answer these questions: POST /api/train (a file or text), `npm run train -- FILE` or the Train button of the chat page; ask again to check.';

/** POST /api/feedback: a visitor's thumbs up or down (and comment) on a reply, by its replyId. */
export function feedbackHandlers(services: () => Services): { POST: MethodHandler } {
  return {
    POST(request) {
      const current = services();
      return underClientLimit(current, request, async () => {
        const log = questionLogOf(current);
        if (!log.enabled) {
          throw new HttpError('feedback_off', 'Feedback is off on this service (QUESTION_LOG=off).');
        }
        const body = validate(feedbackRequestSchema, await readJson(request, FEEDBACK_BODY_LIMIT_BYTES));
        const rated = await log.rate(body.replyId, body.rating, body.comment || undefined);
        if (!rated) {
          throw new HttpError(
            'reply_not_found',
            `There is no reply "${body.replyId}" to rate: give the replyId a reply carried (replies are kept ${current.config.QUESTION_LOG_DAYS} days).`,
          );
        }
        return json({ ok: true, replyId: body.replyId, rating: body.rating } satisfies FeedbackResponse);
      });
    },
  };
}

/**
 * GET /api/admin/questions?kind=unanswered|disliked|top&days=N: what visitors asked, similar
 * questions as one entry, the most asked first, and answered vs unanswered per day.
 */
export function adminQuestionsHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    GET: ownerOnly(services, async (request) => {
      const current = services();
      const params = new URL(request.url).searchParams;
      const query = validate(questionsQuerySchema, {
        ...(params.has('kind') ? { kind: params.get('kind') } : {}),
        ...(params.has('days') ? { days: params.get('days') } : {}),
      });
      const log = questionLogOf(current);
      const days = Math.min(query.days ?? current.config.QUESTION_LOG_DAYS, current.config.QUESTION_LOG_DAYS);
      const replies = log.enabled ? await log.read(days) : [];
      return json({
        kind: query.kind,
        days,
        logging: log.enabled,
        questions: questionReport(replies, query.kind),
        perDay: answeredPerDay(replies, days, current.now()),
        howToTeach: HOW_TO_TEACH,
      } satisfies QuestionsResponse);
    }),
  };
}
