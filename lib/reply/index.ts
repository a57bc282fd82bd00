export { type ReplyBudget, type ReplyMode, replyBudgets } from './budgets.js';
export { copiedRunLimit, scoreCandidate } from './candidate-score.js';
export { EMPTY_MODEL_REPLY, generateReply } from './generate-reply.js';
export { type Keyword, selectKeywords } from './keywords.js';
export { mulberry32, type RandomSource } from './random.js';
export { formatThought } from './thought.js';
export type { Reply, ReplyFallback, ReplyRequest } from './types.js';
