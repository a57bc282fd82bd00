export { type Layout, segmentText, type TextUnit, wrapsMidSentence } from './segment.js';
export { splitSentences } from './sentences.js';
export { PRONOUN_SWAPS, STOP_WORDS } from './stop-words.js';
export {
  CUT_MARK,
  countTokens,
  type LimitedStream,
  type LimitedText,
  limitStream,
  limitTokens,
} from './token-limit.js';
export { capitalise, escapeRegExp, includesWord, isAuxiliary } from './words.js';
