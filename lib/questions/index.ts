export { questionKey } from './group.js';
export { adminQuestionsHandlers, feedbackHandlers } from './handlers.js';
export {
  isUnanswered,
  levelOf,
  type ReplyAnswerSignals,
  type ReplyLevel,
} from './level.js';
export { createQuestionLog, type QuestionLog, questionKeys } from './log.js';
export {
  type LoggedReplyFields,
  logReply,
  type MadeReply,
  planReplyLog,
  questionLogOf,
  type ReplyLogPlan,
  type ReplyToWrite,
} from './reply-log.js';
export { answeredPerDay, questionReport } from './report.js';
export {
  feedbackRequestSchema,
  feedbackResponseSchema,
  MAX_COMMENT_CHARS,
  questionsQuerySchema,
  questionsResponseSchema,
} from './schema.js';
export type { DayCount, LoggedReply, LoggedSource, QuestionEntry, QuestionKind } from './types.js';
