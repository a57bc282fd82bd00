import type { LanguageModel } from '../lm/index.js';
import { PRONOUN_SWAPS, STOP_WORDS } from '../text/index.js';

/** A word a reply should be about. */
export interface Keyword {
  id: number;
  word: string;
  /** Where a candidate may grow from; auxiliary keywords (swapped pronouns) only count in the score. */
  seed: boolean;
  /** Relative chance of being the seed: words of the message weigh more than those of earlier turns. */
  weight: number;
}

export interface KeywordSelection {
  keywords: Keyword[];
  /** Words of the message the model has never seen (as the model tokenizes them). */
  unknownWords: string[];
}

const WORD = /[\p{L}\p{N}]/u;
const MESSAGE_WEIGHT = 3;
const HISTORY_WEIGHT = 1;
/** Recent turns looked at for keywords, newest first. */
const HISTORY_TURNS = 3;

/**
 * MegaHAL's keyword step: the words of the message (and, weighing less, of the last few turns)
 * that are not stop-words and that the model knows. Pronouns are swapped (I/you, me/you,
 * my/your, mine/yours) and kept as auxiliary keywords, used only when there are others.
 */
export function selectKeywords(
  model: LanguageModel,
  message: string,
  history: readonly string[],
  limit = 12,
): KeywordSelection {
  const keywords: Keyword[] = [];
  const auxiliary: Keyword[] = [];
  const seen = new Set<number>();
  const unknownWords: string[] = [];
  const turns = [message, ...history.slice(-HISTORY_TURNS).reverse()];
  turns.forEach((turn, index) => {
    const weight = index === 0 ? MESSAGE_WEIGHT : HISTORY_WEIGHT;
    for (const token of model.tokens(turn)) {
      if (!WORD.test(token)) continue;
      const swaps = PRONOUN_SWAPS.get(token);
      if (swaps) {
        if (index === 0) for (const swapped of swaps) add(auxiliary, swapped, false, weight);
        continue;
      }
      if (STOP_WORDS.has(token)) continue;
      if (!model.vocabulary.has(token)) {
        if (index === 0 && !unknownWords.includes(token)) unknownWords.push(token);
        continue;
      }
      add(keywords, token, true, weight);
    }
  });
  if (keywords.length > 0) keywords.push(...auxiliary);
  return { keywords: keywords.slice(0, limit), unknownWords };

  function add(into: Keyword[], word: string, seed: boolean, weight: number): void {
    if (!model.vocabulary.has(word)) return;
    const id = model.vocabulary.id(word);
    if (seen.has(id)) return;
    seen.add(id);
    into.push({ id, word, seed, weight });
  }
}
