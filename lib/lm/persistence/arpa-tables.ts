import type { KneserNeyEstimator } from '../estimation/kneser-ney.js';
import { TOTAL } from '../estimation/ngram-counts.js';
import type { NgramLevel } from '../querying/ngram-level.js';

/**
 * A backoff model as an ARPA file holds it: per order k = 1..N, the trie level of its n-grams
 * with log10 probability and log10 backoff per entry (backoff absent at the top order).
 */
export interface ArpaTables {
  order: number;
  levels: NgramLevel[];
  logProb: ArrayLike<number>[];
  logBackoff: ArrayLike<number>[];
  /** Whether entry `id` of order k belongs in the file (counted n-grams only). */
  present(k: number, id: number): boolean;
}

/**
 * The interpolated estimates of a Kneser-Ney model written as backoff tables: the probability of
 * each counted n-gram is its full interpolated probability and the backoff of a context is its γ,
 * so ARPA backoff queries return exactly the interpolated values.
 */
export function kneserNeyTables(estimator: KneserNeyEstimator): ArpaTables {
  estimator.refresh();
  const counts = estimator.counts;
  const order = counts.order;
  const logProb: Float64Array[] = [new Float64Array(0)];
  const logBackoff: Float64Array[] = [new Float64Array(0)];
  // Linear probabilities of the order below, and the id there of each entry's suffix.
  let lower = new Float64Array(counts.levels[1].size);
  for (let w = 0; w < lower.length; w++) lower[w] = estimator.unigram(w);
  logProb.push(lower.map(Math.log10));
  let lowerSuffix = new Int32Array(0);
  for (let k = 2; k <= order; k++) {
    const level = counts.levels[k];
    const probs = new Float64Array(level.size);
    const suffix = new Int32Array(level.size);
    for (let id = 0; id < level.size; id++) {
      const context = level.contextOf(id);
      const word = level.wordOf(id);
      suffix[id] = k === 2 ? word : counts.levels[k - 1].find(lowerSuffix[context], word);
      const total = counts.statOf(k - 1, context, TOTAL);
      const count = counts.countOf(k, id);
      probs[id] =
        (count - estimator.discount(k, count)) / total + estimator.gamma(k - 1, context) * lower[suffix[id]];
    }
    logProb.push(probs.map(Math.log10));
    lower = probs;
    lowerSuffix = suffix;
  }
  for (let k = 1; k < order; k++) {
    const backoff = new Float64Array(counts.levels[k].size);
    for (let id = 0; id < backoff.length; id++) backoff[id] = Math.log10(estimator.gamma(k, id));
    logBackoff.push(backoff);
  }
  return {
    order,
    levels: counts.levels,
    logProb,
    logBackoff,
    present: (k, id) => k === 1 || counts.countOf(k, id) > 0,
  };
}
