/**
 * How text becomes tokens:
 * - `natural`: words are runs of Unicode letters, marks and digits, with apostrophes inside a word
 *   kept (don't, LORD's); every other non-space character is a token of its own.
 * - `whitespace`: split on whitespace only, as KenLM reads pretokenized text.
 */
export type TokenizerMode = 'natural' | 'whitespace';

const NATURAL_TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu;
const WHITESPACE = /\s+/;
/** Text that `split(' ')` cuts as `\s+` does: no whitespace but single inner spaces. */
const NOT_SINGLE_SPACED = /[^\S ]| {2}|^ | $/;
const SENTENCE_END = new Set(['.', '!', '?']);

/** The tokens of one line of text, in their surface form (case-folded by `foldCase`, not here). */
export function tokenize(text: string, mode: TokenizerMode = 'natural'): string[] {
  if (mode === 'whitespace') {
    if (text === '') return [];
    if (!NOT_SINGLE_SPACED.test(text)) return text.split(' ');
    return text.split(WHITESPACE).filter((token) => token.length > 0);
  }
  return text.match(NATURAL_TOKEN) ?? [];
}

/** The form a token is counted under: case-folded in natural mode, untouched otherwise. */
export function foldCase(token: string, mode: TokenizerMode = 'natural'): string {
  return mode === 'natural' ? token.toLowerCase() : token;
}

/** True when the token ends a sentence, so the next word starts one. */
export function endsSentence(token: string): boolean {
  return SENTENCE_END.has(token);
}

const NO_SPACE_BEFORE = new Set([',', '.', ';', ':', '?', '!', ')', ']', '}', '%', '…', "'", '’', '”', '»']);
const NO_SPACE_AFTER = new Set(['(', '[', '{', '¿', '¡', '“', '«', '$', '#', '@']);
const JOINERS = new Set(['-', '‐', '–', '—', '/']);

/**
 * Joins tokens with natural spacing: none before closing punctuation (, . ; : ? ! ) and the like),
 * none after opening brackets, none around hyphens, dashes and slashes; straight double quotes
 * alternate between opening and closing.
 */
export function detokenize(tokens: readonly string[]): string {
  let text = '';
  let quoteOpen = false;
  let glueNext = true;
  for (const token of tokens) {
    let glue = glueNext || NO_SPACE_BEFORE.has(token) || JOINERS.has(token);
    glueNext = NO_SPACE_AFTER.has(token) || JOINERS.has(token);
    if (token === '"') {
      if (quoteOpen) glue = true;
      else glueNext = true;
      quoteOpen = !quoteOpen;
    }
    text += glue ? token : ' ' + token;
  }
  return text;
}
