// The handlers (and the passage check they use) are imported from ./handlers.js and ./answers.js
// directly: lib/answer calls this module, so its public face must not import lib/answer back.
export { questionFromHeading } from './phrase.js';
export {
  type AnswersQuestion,
  MAX_SUGGESTIONS,
  type SuggestionKnowledge,
  suggestedQuestions,
} from './suggest.js';
export {
  DEFAULT_UNKNOWN_REPLY,
  suggestionSentence,
  UNKNOWN_REPLY_SUGGESTIONS,
  unknownReplyText,
} from './unknown-reply.js';
