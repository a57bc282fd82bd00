import type { TokenPredictor } from '../types.js';
import { EOS, UNK } from '../words/vocabulary.js';

/** Where `TokenPredictor.scoreSentence` adds its sums. */
export const SENTENCE_SUMS = {
  /** Σ log10 p over every token of the sentence, `</s>` included. */
  all: 0,
  /** Σ log10 p over its unknown words only. */
  unknown: 1,
} as const;

/**
 * Below this a running product of probabilities is turned into its logarithm: far above the
 * smallest double, so multiplying by any probability a model gives cannot underflow it.
 */
export const PRODUCT_FLOOR = 1e-200;

/** `scoreSentence` done token by token through `advance` (what every predictor can do). */
export function scoreByAdvancing(
  predictor: TokenPredictor,
  words: Int32Array,
  length: number,
  sums: Float64Array,
): void {
  const state = predictor.startState();
  for (let i = 0; i < length; i++) {
    const logProb = predictor.advance(state, words[i]);
    sums[SENTENCE_SUMS.all] += logProb;
    if (words[i] === UNK) sums[SENTENCE_SUMS.unknown] += logProb;
  }
  sums[SENTENCE_SUMS.all] += predictor.advance(state, EOS);
}
