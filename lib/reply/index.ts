export { type ReplyBudget, type ReplyMode, replyBudgets } from './budgets';
export { copiedRunLimit, scoreCandidate } from './candidate-score';
export { EMPTY_MODEL_REPLY, generateReply } from './generate-reply';
export { type Keyword, selectKeywords } from './keywords';
export { mulberry32, type RandomSource } from './random';
export { formatThought } from './thought';
export type { Reply, ReplyFallback, ReplyRequest } from './types';
