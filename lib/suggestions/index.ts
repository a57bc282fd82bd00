// The handlers are imported from ./handlers.js directly: the reply pipeline calls this module, so its
// public face must not import the pipeline back.
export { questionFromHeading } from './phrase.js';
export {
  type AnswersQuestion,
  MAX_SUGGESTIONS,
  questionsNear,
  type SuggestionKnowledge,
  suggestedQuestions,
} from './suggest.js';
export {
  DEFAULT_UNKNOWN_REPLY,
  suggestionSentence,
  UNKNOWN_REPLY_SUGGESTIONS,
  unknownReplyText,
} from './unknown-reply.js';
