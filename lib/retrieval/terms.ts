import { stemmer } from 'stemmer';
import { foldCase, ownCopy, tokenize } from '../lm/index.js';
import { PRONOUN_SWAPS, STOP_WORDS } from '../text/index.js';
import { baseForm } from './irregular-verbs.js';

const WORD = /[\p{L}\p{N}]/u;
const POSSESSIVE = /['’]s?$/u;

const stems = new Map<string, string | null>();
const STEM_CACHE_LIMIT = 200_000;

/**
 * The search form of a word: case-folded, possessive dropped, irregular past forms to their base
 * ("built" -> "build"), Porter-stemmed; null for stop-words.
 */
export function searchTerm(token: string): string | null {
  const cached = stems.get(token);
  if (cached !== undefined) return cached;
  const term = computeTerm(token);
  // Copies: a token (and an unstemmed term) may be a slice that would keep its whole text alive.
  if (stems.size < STEM_CACHE_LIMIT) stems.set(ownCopy(token), term === null ? null : ownCopy(term));
  return term;
}

function computeTerm(token: string): string | null {
  if (!WORD.test(token)) return null;
  const word = foldCase(token).replace(POSSESSIVE, '');
  if (word === '' || STOP_WORDS.has(word) || PRONOUN_SWAPS.has(word)) return null;
  return /\p{N}/u.test(word) ? word : stemmer(baseForm(word));
}

/** What separates the words of a sentence weighed against a question (an apostrophe stays inside). */
const WEIGHED_WORD_BREAK = /[^\p{L}\p{N}'’]+/u;
const distinctTerms = new Map<string, readonly string[]>();
const DISTINCT_CACHE_LIMIT = 20_000;
const DISTINCT_CACHED_LENGTH = 1_000;

/**
 * The distinct search terms of a text's words, in the order they first occur: what a sentence
 * is weighed by against a question's words. Kept per text, since the same sentences of the same
 * passages are weighed for message after message (a pure function of the text: nothing to
 * invalidate when documents change).
 */
export function distinctTermsOf(text: string): readonly string[] {
  const cached = distinctTerms.get(text);
  if (cached) return cached;
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const word of text.split(WEIGHED_WORD_BREAK)) {
    const term = word ? searchTerm(word) : null;
    if (!term || seen.has(term)) continue;
    seen.add(term);
    terms.push(term);
  }
  // A long text (a line of minified code) is not kept: the cache stays a few megabytes at most.
  if (text.length > DISTINCT_CACHED_LENGTH) return terms;
  if (distinctTerms.size >= DISTINCT_CACHE_LIMIT) distinctTerms.clear();
  distinctTerms.set(ownCopy(text), terms);
  return terms;
}

/**
 * The search terms of a text in order, repeats kept (documents count them). An identifier
 * written in camelCase also gives the terms of its words ("maxParamLength": "max", "param",
 * "length"): technical documents name settings so, and a question says them in words.
 */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  const tokens = tokenize(text);
  tokens.forEach((token, at) => {
    const term = searchTerm(token);
    if (!term) return;
    terms.push(term);
    const joined = letterName(tokens, at);
    if (joined) terms.push(joined);
    if (!CAMEL_CASE.test(token)) return;
    for (const part of token.match(CAMEL_PARTS) ?? []) {
      const inner = searchTerm(part);
      if (inner && inner !== term) terms.push(inner);
    }
  });
  return terms;
}

/**
 * A name made of one letter and "#" or "++" ("C#", "F#", "C++", "G++"): the tokenizer splits off
 * the signs, so "C#" would be searched as the letter "c" and found in any text about C. The name
 * is a term of its own beside the letter's (what a text about C++ says of C is still found for
 * "C"), so a question about C# on documents that never name it finds it never taught.
 */
export function letterName(tokens: readonly string[], at: number): string | null {
  const token = tokens[at]!;
  if (token.length !== 1 || !/[A-Za-z]/.test(token)) return null;
  if (tokens[at + 1] === '#') return `${token.toLowerCase()}#`;
  if (tokens[at + 1] === '+' && tokens[at + 2] === '+') return `${token.toLowerCase()}++`;
  return null;
}

/** A lower-case letter followed by a capital: a camelCase identifier ("bodyLimit", "onRequest"). */
const CAMEL_CASE = /\p{Ll}\p{Lu}/u;
/** The words of a camelCase identifier: "keepAliveTimeout" -> keep, Alive, Timeout; "parseURLQuery" -> parse, URL, Query. */
const CAMEL_PARTS = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+/gu;

/** One word of a query and how much it counts (earlier user turns count less than the message). */
export interface QueryTerm {
  term: string;
  /** The word as the user wrote it (case-folded), for the thought and "I don't know about X". */
  word: string;
  weight: number;
  /** Written like a name or a number (capitalised inside the sentence, or with digits). */
  name: boolean;
  /** For a related word (a synonym): the index of the query word it stands for. */
  expands?: number;
}

/** Words that frame a request ("tell me about", "explain") rather than say what it is about. */
const REQUEST_WORDS = new Set(
  'tell explain describe define know please mean means meaning anything something everything'.split(' '),
);

/** Distinct search terms of a text with their surface words; the first weight a term gets wins. */
export function queryTermsOf(text: string, weight = 1): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  const tokens = tokenize(text);
  tokens.forEach((token, position) => {
    if (REQUEST_WORDS.has(foldCase(token))) return;
    const term = searchTerm(token);
    if (!term || seen.has(term)) return;
    seen.add(term);
    const name = /\p{N}/u.test(token) || (position > 0 && /^\p{Lu}/u.test(token));
    terms.push({ term, word: foldCase(token).replace(POSSESSIVE, ''), weight, name });
    const joined = letterName(tokens, position);
    if (joined && !seen.has(joined)) {
      seen.add(joined);
      terms.push({ term: joined, word: joined, weight, name: true });
    }
  });
  return terms;
}
