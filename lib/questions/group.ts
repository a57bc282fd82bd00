import { STOP_WORDS } from '../text/index.js';

/**
 * The key under which similar questions are counted as one: the question's words once case,
 * punctuation and stop words are set aside, each once, in a fixed order. "How do I reset my
 * password?" and "reset password" share a key; a question made only of stop words keeps them.
 */
export function questionKey(question: string): string {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? [];
  const normal = words.map((word) => word.replace(/’/g, "'"));
  const content = normal.filter((word) => !STOP_WORDS.has(word));
  return [...new Set(content.length > 0 ? content : normal)].sort().join(' ');
}
