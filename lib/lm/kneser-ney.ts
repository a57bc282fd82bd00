import { type ContextState, createContextState } from './context-state';
import { modifiedKneserNeyDiscounts } from './discounts';
import { sampleKneserNey } from './kneser-ney-sampler';
import type { NgramCounts } from './ngram-counts';
import type { TokenDistribution } from './token-distribution';
import type { TokenPredictor } from './types';
import { UnigramTable } from './unigram-table';
import { BOS, UNK } from './vocabulary';

/**
 * Interpolated modified Kneser-Ney over live counts, as lmplz estimates it:
 *   p(w | c) = (a(cw) - D(a(cw))) / a(c·) + γ(c) p(w | c'),  γ(c) = (D1 N1(c·) + D2 N2(c·) + D3 N3+(c·)) / a(c·)
 * down to the unigrams, which are interpolated with the uniform 1/|V| (|V| counting `<unk>` and
 * `</s>` but not `<s>`); `<unk>` has count 0 and so gets only that uniform share. A context never
 * seen passes the lower order through unchanged, which is what ARPA backoff does.
 * Discounts follow the counts: they are recomputed whenever the counts change.
 */
export class KneserNeyEstimator implements TokenPredictor {
  lastMatch = 0;
  /** discounts[k] = [0, D1, D2, D3+] of order k. */
  private readonly discounts: Float64Array[];
  private seenVersion = -1;
  private uniform = 0;
  private rootGamma = 0;
  private rootTotal = 0;
  private readonly next: Int32Array;
  private unigrams: UnigramTable | null = null;
  private unigramsVersion = -1;

  constructor(readonly counts: NgramCounts) {
    this.discounts = [];
    for (let k = 0; k <= counts.order; k++) this.discounts.push(new Float64Array(4));
    this.next = new Int32Array(counts.order + 1);
  }

  get order(): number {
    return this.counts.order;
  }

  /** [D1, D2, D3+] of order k as currently estimated. */
  discountsOf(k: number): [number, number, number] {
    this.refresh();
    const d = this.discounts[k];
    return [d[1], d[2], d[3]];
  }

  /** Brings discounts and unigram constants up to date with the counts. */
  refresh(): void {
    const counts = this.counts;
    if (this.seenVersion === counts.version) return;
    this.seenVersion = counts.version;
    for (let k = 1; k <= counts.order; k++) {
      this.discounts[k].set(modifiedKneserNeyDiscounts(counts.countsOfCounts[k]), 1);
    }
    const d = this.discounts[1];
    this.rootTotal = counts.total[0][0];
    this.rootGamma =
      this.rootTotal > 0
        ? (d[1] * counts.ones[0][0] + d[2] * counts.twos[0][0] + d[3] * counts.threePlus[0][0]) /
          this.rootTotal
        : 1;
    // Every unigram but <s> shares the uniform mass.
    this.uniform = 1 / Math.max(1, counts.levels[1].size - 1);
  }

  /** Probability of `word` from the unigram level alone. */
  unigram(word: number): number {
    this.refresh();
    const count = word < this.counts.levels[1].size ? this.counts.count[1][word] : 0;
    const discounted = count > 0 ? (count - this.discount(1, count)) / this.rootTotal : 0;
    return discounted + this.rootGamma * this.uniform;
  }

  /** [unused, D1, D2, D3+] of order k, current with the counts (do not modify). */
  discountTable(k: number): Float64Array {
    this.refresh();
    return this.discounts[k];
  }

  /** Discount of order k for an n-gram of adjusted count `count` > 0. */
  discount(k: number, count: number): number {
    return this.discounts[k][count >= 3 ? 3 : count];
  }

  /** Backoff weight γ of the context entry `id` of order k (contexts of order 0: id 0), 1 when unseen. */
  gamma(k: number, id: number): number {
    const counts = this.counts;
    const total = counts.total[k][id];
    if (total === 0) return 1;
    const d = this.discounts[k + 1];
    return (d[1] * counts.ones[k][id] + d[2] * counts.twos[k][id] + d[3] * counts.threePlus[k][id]) / total;
  }

  /**
   * log10 p(word | state), moving `state` past `word` (an unknown word empties it).
   * Costs one hash probe per order matched.
   */
  advance(state: ContextState, word: number): number {
    const p = this.interpolate(state, word);
    const length = Math.min(this.lastMatch, this.counts.order - 1);
    for (let k = 1; k <= length; k++) state.ids[k] = this.next[k];
    state.length = length;
    return Math.log10(p);
  }

  /** p(word | state), leaving `state` as it is. */
  probability(state: ContextState, word: number): number {
    return this.interpolate(state, word);
  }

  /** p(word | state); leaves the ids of the n-grams matched in `next` and their order in `lastMatch`. */
  private interpolate(state: ContextState, word: number): number {
    this.refresh();
    const counts = this.counts;
    const order = counts.order;
    const next = this.next;
    let p = this.unigram(word);
    let matched = word !== UNK && word < counts.levels[1].size && counts.count[1][word] > 0 ? 1 : 0;
    next[1] = word;
    const top = Math.min(state.length + 1, order);
    for (let k = 2; k <= top; k++) {
      const context = state.ids[k - 1];
      const total = counts.total[k - 1][context];
      if (total === 0) break;
      const d = this.discounts[k];
      const gamma =
        (d[1] * counts.ones[k - 1][context] +
          d[2] * counts.twos[k - 1][context] +
          d[3] * counts.threePlus[k - 1][context]) /
        total;
      if (matched === k - 1) {
        const id = counts.levels[k].find(context, word);
        if (id >= 0) {
          const count = counts.count[k][id];
          p = (count - d[count >= 3 ? 3 : count]) / total + gamma * p;
          next[k] = id;
          matched = k;
          continue;
        }
      }
      p *= gamma;
    }
    this.lastMatch = matched;
    return p;
  }

  startState(): ContextState {
    return createContextState(this.counts.order, BOS);
  }

  sample(state: ContextState, temperature: number, random: () => number, scratch: TokenDistribution): number {
    return sampleKneserNey(this, state, temperature, random, scratch);
  }

  nextTokens(state: ContextState, into: TokenDistribution): void {
    this.refresh();
    const counts = this.counts;
    into.reset(this.unigramTable());
    const top = Math.min(state.length + 1, counts.order);
    for (let k = 2; k <= top; k++) {
      const context = state.ids[k - 1];
      const total = counts.total[k - 1][context];
      if (total === 0) break;
      into.multiply(this.gamma(k - 1, context));
      const d = this.discounts[k];
      const level = counts.levels[k];
      const count = counts.count[k];
      for (let id = counts.levels[k - 1].firstChild![context]; id >= 0; id = level.nextSibling[id]) {
        const c = count[id];
        into.add(level.word[id], (c - d[c >= 3 ? 3 : c]) / total);
      }
    }
  }

  unigramTable(): UnigramTable {
    this.refresh();
    if (!this.unigrams || this.unigramsVersion !== this.counts.version) {
      const probs = new Float64Array(this.counts.levels[1].size);
      for (let w = 0; w < probs.length; w++) probs[w] = this.unigram(w);
      this.unigrams = new UnigramTable(probs);
      this.unigramsVersion = this.counts.version;
    }
    return this.unigrams;
  }
}
