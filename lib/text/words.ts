/** True when a text holds a word (or phrase) as a whole word, case-insensitively. */
export function includesWord(text: string, word: string): boolean {
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(word)}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

/** A text as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The text with its first letter in upper case. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * English auxiliary verbs, with their negative forms: the verbs a yes/no question opens with
 * ("Is zlib thread-safe?", "Can't I …?") and that an embedded question moves after its subject
 * ("how replies are made").
 */
const AUXILIARY_VERBS = new Set(
  (
    'is are was were am do does did can could will would should shall may might must has have had cannot ' +
    "isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't wouldn't shouldn't hasn't haven't hadn't"
  ).split(' '),
);

/** True when a word (any case, either apostrophe) is an English auxiliary verb. */
export function isAuxiliary(word: string): boolean {
  return AUXILIARY_VERBS.has(word.toLowerCase().replace(/’/g, "'"));
}
