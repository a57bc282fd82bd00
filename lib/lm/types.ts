import type { ContextState } from './querying/context-state.js';
import type { TokenDistribution } from './sampling/token-distribution.js';
import type { UnigramTable } from './sampling/unigram-table.js';

/**
 * One direction of an n-gram model, as scorers and generators use it. Implemented over live
 * Kneser-Ney counts and over a loaded ARPA file.
 */
export interface TokenPredictor {
  readonly order: number;
  /** Order of the longest n-gram ending at the word of the last `advance` that was seen in training. */
  readonly lastMatch: number;
  /** A state at the start of a sentence (`<s>` as context). */
  startState(): ContextState;
  /** log10 p(word | state), moving `state` past `word`. */
  advance(state: ContextState, word: number): number;
  /**
   * Scores the sentence `words[0..length-1]` from `<s>`, then `</s>`, as `advance` would token by
   * token: adds Σ log10 p to `sums[SENTENCE_SUMS.all]` and the unknown words' terms to
   * `sums[SENTENCE_SUMS.unknown]`.
   */
  scoreSentence(words: Int32Array, length: number, sums: Float64Array): void;
  /**
   * Draws the next word after `state` at `temperature` (0 = argmax, 1 = the model's distribution,
   * between: p^(1/T) renormalised); never `<s>` or `<unk>`. `scratch` is reusable working space.
   */
  sample(state: ContextState, temperature: number, random: () => number, scratch: TokenDistribution): number;
  /** Σ over every word that can be drawn of p(w | state)^(1/T): the sampler's normaliser (for tests). */
  temperedTotal(state: ContextState, temperature: number): number;
  /** Fills `into` with the distribution of the next word after `state`. */
  nextTokens(state: ContextState, into: TokenDistribution): void;
  /** Unigram probabilities for sampling, current with the model. */
  unigramTable(): UnigramTable;
}

/** Per-token log10 probabilities of one line, `</s>` last. */
export interface LineScore {
  tokens: string[];
  logProbs: number[];
  /** Which tokens were unknown words (their log prob is `<unk>`'s). */
  unknown: boolean[];
}
