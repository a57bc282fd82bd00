import type { KneserNeyEstimator } from '../estimation/kneser-ney.js';
import { type NgramCounts, TOTAL } from '../estimation/ngram-counts.js';

/** The keys of the n-grams of one order: entry ids 0..size-1, each a (context entry, word) pair. */
export interface NgramKeys {
  readonly size: number;
  wordOf(id: number): number;
  /** The entry id of its context at the order below (0 at order 1). */
  contextOf(id: number): number;
}

/**
 * A backoff model as an ARPA file holds it: per order k = 1..N, the trie level of its n-grams
 * with log10 probability and log10 backoff per entry (backoff absent at the top order).
 */
export interface ArpaTables {
  order: number;
  levels: NgramKeys[];
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
  const keys = countKeys(counts);
  const logProb: Float64Array[] = [new Float64Array(0)];
  const logBackoff: Float64Array[] = [new Float64Array(0)];
  // Linear probabilities of the order below, and the id there of each entry's suffix.
  let lower = new Float64Array(counts.levels[1].size);
  for (let w = 0; w < lower.length; w++) lower[w] = estimator.unigram(w);
  logProb.push(lower.map(Math.log10));
  let lowerSuffix = new Int32Array(0);
  for (let k = 2; k <= order; k++) {
    const level = keys[k];
    const probs = new Float64Array(level.size);
    const suffix = new Int32Array(level.size);
    for (let id = 0; id < level.size; id++) {
      const context = level.contextOf(id);
      const word = level.wordOf(id);
      suffix[id] = k === 2 ? word : counts.find(k - 1, lowerSuffix[context], word);
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
    levels: keys,
    logProb,
    logBackoff,
    present: (k, id) => k === 1 || counts.countOf(k, id) > 0,
  };
}

/** The keys of every order of the counts, contexts read off the context ranges once. */
function countKeys(counts: NgramCounts): NgramKeys[] {
  const keys: NgramKeys[] = [];
  for (let k = 0; k <= counts.order; k++) {
    const size = counts.entries(k);
    const contexts = k > 1 ? counts.contextColumn(k) : new Int32Array(size);
    keys.push({ size, wordOf: (id) => counts.wordOf(k, id), contextOf: (id) => contexts[id] });
  }
  return keys;
}
