export {
  type ComposedReply,
  type ComposeRequest,
  composeReply,
  describeSearch,
  EMPTY_KNOWLEDGE_REPLY,
  type Knowledge,
  refText,
} from './compose.js';
export { answerFromPassages, type GroundedAnswer, unknownReply } from './grounded.js';
export { type AnswerKind, type QuestionShape, shapeOf } from './question.js';
export { type EvidenceBudget, evidenceBudgets, type Source, type SourceRef } from './types.js';
