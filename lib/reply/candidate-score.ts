import type { LanguageModel } from '../lm/index.js';
import type { ForwardPass } from './grow.js';

const LOG2_OF_10 = Math.log2(10);

export interface CandidateScore {
  /** MegaHAL's surprise: Σ -log2 p of the keyword tokens in both directions, length-normalised. */
  surprise: number;
  /** Keyword occurrences that went into it. */
  keywordHits: number;
  /** Longest run of tokens that chains n-grams seen in training (a verbatim copy, as far as counts can tell). */
  copiedRun: number;
  /** Mean log10 probability of a token under the forward model: how much it reads like the text. */
  fluency: number;
}

/**
 * Scores a candidate. Surprise is MegaHAL's `evaluate_reply` over the model's smoothed
 * probabilities: every keyword token adds its -log2 p under the forward model and under the
 * backward one; with 8+ terms the sum is divided by √(terms-1), with 16+ also by the terms.
 * The copied run chains the longest seen n-gram ending at each token: a run longer than the
 * order is a sequence of overlapping seen top-order n-grams.
 */
export function scoreCandidate(
  model: LanguageModel,
  ids: readonly number[],
  keywords: ReadonlySet<number>,
  forwardPass: ForwardPass | null = null,
): CandidateScore {
  const forward = model.forward;
  const order = forward.order;
  let surprise = 0;
  let hits = 0;
  let copiedRun = 0;
  let run = 0;
  let previousMatch = 0;
  let logProbSum = 0;
  // The walk the grower already made from <s> gives the same numbers as walking again.
  const pass = forwardPass?.logProbs.length === ids.length ? forwardPass : null;
  const state = pass ? null : forward.startState();
  for (let j = 0; j < ids.length; j++) {
    const logProb = pass ? pass.logProbs[j] : forward.advance(state!, ids[j]);
    logProbSum += logProb;
    if (keywords.has(ids[j])) {
      surprise -= logProb * LOG2_OF_10;
      hits++;
    }
    const match = Math.min(pass ? pass.matches[j] : forward.lastMatch, j + 1);
    run = match === order && previousMatch === order ? run + 1 : match;
    previousMatch = match;
    if (run > copiedRun) copiedRun = run;
  }
  const backward = model.backward;
  if (backward) {
    const backState = backward.startState();
    for (let j = ids.length - 1; j >= 0; j--) {
      const logProb = backward.advance(backState, ids[j]);
      if (keywords.has(ids[j])) {
        surprise -= logProb * LOG2_OF_10;
        hits++;
      }
    }
  }
  if (hits >= 8) surprise /= Math.sqrt(hits - 1);
  if (hits >= 16) surprise /= hits;
  return { surprise, keywordHits: hits, copiedRun, fluency: ids.length > 0 ? logProbSum / ids.length : -99 };
}

/** Markovify's overlap rule: a candidate may share at most this many consecutive tokens with the training text. */
export function copiedRunLimit(length: number): number {
  return Math.min(15, Math.round(0.7 * length));
}
