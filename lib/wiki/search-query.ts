import { normalizeWord, stopWords } from './stop-words.js';

const MAX_QUERY_LENGTH = 100;
/** Quotes, brackets and sentence punctuation that wrap a word but are not part of it. */
const EDGE_PUNCTUATION = /^["'“”‘’«»()[\]{}<>¿¡?!,.;:]+|["'“”‘’«»()[\]{}<>?!,.;:]+$/g;
/** Dotted abbreviations such as `U.S.` keep their final dot. */
const DOTTED_ABBREVIATION = /^(?:\p{L}\.){2,}$/u;

/**
 * Turns a chat message into an encyclopedia search query: the substantive words in their order,
 * without question words and filler ("what is", "who was", "tell me about"). When nothing
 * substantive is left, the message itself, trimmed to about 100 characters.
 */
export function searchQueryFrom(message: string): string {
  const words = message
    .split(/\s+/)
    .map(stripEdges)
    .filter((word) => /[\p{L}\p{N}]/u.test(word) && !stopWords.has(normalizeWord(word)));
  const query = words.length > 0 ? words.join(' ') : message.replace(/\s+/g, ' ').trim();
  return cutAtWord(query, MAX_QUERY_LENGTH);
}

function stripEdges(token: string): string {
  const leading = token.replace(/^["'“”‘’«»()[\]{}<>¿¡]+/, '');
  if (DOTTED_ABBREVIATION.test(leading)) return leading;
  return token.replace(EDGE_PUNCTUATION, '');
}

function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).trim();
}
