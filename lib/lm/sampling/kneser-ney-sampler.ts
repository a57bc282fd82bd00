import type { KneserNeyEstimator } from '../estimation/kneser-ney.js';
import { COUNT, TOTAL } from '../estimation/ngram-counts.js';
import type { ContextState } from '../querying/context-state.js';
import { sampleToken } from './sampling.js';
import { CACHED_SUCCESSORS } from './successor-cache.js';
import type { TokenDistribution } from './token-distribution.js';

/** Rejected draws before falling back to weighing every candidate. */
const MAX_REJECTIONS = 12;

/**
 * Draws the next word from an interpolated Kneser-Ney model without enumerating the vocabulary.
 *
 * At temperature 1 the interpolation is sampled level by level, longest context first: at a
 * context, with probability 1-γ the word is one of its successors, drawn in proportion to its
 * discounted count; otherwise the draw moves to the next shorter context; the unigram level draws
 * from a cumulative table. That is exactly p(w | context).
 *
 * Below 1, a word drawn that way is kept with probability (p(w)/B)^(1/T - 1), B bounding every
 * p(w | context) (from the largest successor count of each context), which leaves exactly
 * p^(1/T) renormalised. After a few rejections (low temperatures) the candidates are weighed one
 * by one instead (`sampleToken`), also exact. Temperature 0 is the argmax.
 */
export function sampleKneserNey(
  estimator: KneserNeyEstimator,
  state: ContextState,
  temperature: number,
  random: () => number,
  scratch: TokenDistribution,
): number {
  if (temperature > 0) {
    if (temperature >= 1) return drawInterpolated(estimator, state, random);
    const exponent = 1 / temperature - 1;
    const bound = probabilityBound(estimator, state);
    for (let attempt = 0; attempt < MAX_REJECTIONS; attempt++) {
      const word = drawInterpolated(estimator, state, random);
      const ratio = estimator.probability(state, word) / bound;
      if (random() < ratio ** exponent) return word;
    }
  }
  estimator.nextTokens(state, scratch);
  return sampleToken(scratch, temperature, random);
}

function drawInterpolated(estimator: KneserNeyEstimator, state: ContextState, random: () => number): number {
  const counts = estimator.counts;
  for (let k = Math.min(state.length + 1, counts.order); k >= 2; k--) {
    const context = state.ids[k - 1];
    const total = counts.statOf(k - 1, context, TOTAL);
    if (total === 0) continue;
    const d = estimator.discountTable(k);
    const d1 = d[1];
    const d2 = d[2];
    const d3 = d[3];
    const discountedMass = total * (1 - estimator.gamma(k - 1, context));
    let target = random() * total;
    if (target >= discountedMass) continue;
    if (counts.successorCount(k - 1, context) > CACHED_SUCCESSORS)
      return estimator.successors.pick(k, context, d, target);
    const level = counts.levels[k];
    const cells = level.cells;
    const stride = level.stride;
    let last = -1;
    for (let id = counts.levels[k - 1].firstChild![context]; id >= 0; id = level.nextSibling[id]) {
      const c = cells[id * stride + COUNT];
      target -= c - (c === 1 ? d1 : c === 2 ? d2 : d3);
      last = id;
      if (target < 0) break;
    }
    return level.wordOf(last);
  }
  return estimator.unigramTable().draw(1, random);
}

/** An upper bound of p(w | state) over all words. */
function probabilityBound(estimator: KneserNeyEstimator, state: ContextState): number {
  const counts = estimator.counts;
  let bound = estimator.unigramTable().max;
  const top = Math.min(state.length + 1, counts.order);
  for (let k = 2; k <= top; k++) {
    const context = state.ids[k - 1];
    const total = counts.statOf(k - 1, context, TOTAL);
    if (total === 0) break;
    bound = estimator.maxChild(k - 1, context) / total + estimator.gamma(k - 1, context) * bound;
  }
  return Math.min(1, bound);
}
