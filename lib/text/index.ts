export { type Layout, segmentText, type TextUnit } from './segment.js';
export { splitSentences } from './sentences.js';
export { PRONOUN_SWAPS, STOP_WORDS } from './stop-words.js';
