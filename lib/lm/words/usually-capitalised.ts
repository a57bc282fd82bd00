import type { LanguageModel } from '../language-model.js';
import { foldCase } from './tokenizer.js';

/**
 * True when the taught text usually writes a word capitalised (a name, not a word that merely
 * starts a sentence), judged by the surface form the model keeps; a word never taught counts as one.
 */
export function usuallyCapitalised(model: LanguageModel, word: string): boolean {
  const folded = foldCase(word);
  if (!model.vocabulary.has(folded)) return true;
  return /^\p{Lu}/u.test(model.surfaceForm(model.vocabulary.id(folded)));
}
