import { BOS, UNK } from '../words/vocabulary.js';
import type { UnigramTable } from './unigram-table.js';

// Module-local copies for the per-successor loop: transpiled imports are read through getters.
const START = BOS;
const UNKNOWN = UNK;

/**
 * A next-token distribution of an n-gram model, held sparsely. Every word w has
 *   p(w) = scale · (unigram(w) + extra(w)),
 * where extra(w) is non-zero only for the candidates: words seen after some matched context of
 * order ≥ 1. Building it walks the successors of each matched context once; the unigram tail
 * is never enumerated (sampling draws from it through the unigram table).
 */
export class TokenDistribution {
  unigrams!: UnigramTable;
  scale = 1;
  size = 0;
  candidates = new Int32Array(64);
  extra = new Float64Array(64);
  /** Scratch space for samplers, as long as `candidates`. */
  weights = new Float64Array(64);
  private slotOf = new Int32Array(0);
  private stamp = new Int32Array(0);
  private generation = 0;

  /** Starts an empty distribution (the unigram level alone). */
  reset(unigrams: UnigramTable): void {
    this.unigrams = unigrams;
    this.scale = 1;
    this.size = 0;
    const vocabulary = unigrams.probs.length;
    if (this.stamp.length < vocabulary) {
      this.stamp = new Int32Array(vocabulary);
      this.slotOf = new Int32Array(vocabulary);
      this.generation = 0;
    }
    this.generation++;
  }

  /** Multiplies every probability by `factor` (moving to a longer context: its backoff weight). */
  multiply(factor: number): void {
    this.scale *= factor;
  }

  /** Adds `amount` to p(word) as it stands at the current scale (interpolated estimate). */
  add(word: number, amount: number): void {
    if (word === UNKNOWN || word === START) return;
    this.slot(word, true);
    this.extra[this.slotOf[word]] += amount / this.scale;
  }

  /** Sets p(word) to `probability` (a backoff model's explicit n-gram). */
  set(word: number, probability: number): void {
    if (word === UNKNOWN || word === START) return;
    this.slot(word, true);
    this.extra[this.slotOf[word]] = probability / this.scale - this.unigrams.probs[word];
  }

  /** The index of `word` among the candidates, or -1. */
  indexOf(word: number): number {
    return word < this.stamp.length && this.stamp[word] === this.generation ? this.slotOf[word] : -1;
  }

  /** p(word). */
  probability(word: number): number {
    const unigram = this.unigrams.probs[word] ?? 0;
    const index = this.indexOf(word);
    return this.scale * (index < 0 ? unigram : unigram + this.extra[index]);
  }

  private slot(word: number, create: boolean): void {
    if (this.stamp[word] === this.generation || !create) return;
    if (this.size === this.candidates.length) {
      const candidates = new Int32Array(this.size * 2);
      candidates.set(this.candidates);
      this.candidates = candidates;
      const extra = new Float64Array(this.size * 2);
      extra.set(this.extra);
      this.extra = extra;
      this.weights = new Float64Array(this.size * 2);
    }
    this.stamp[word] = this.generation;
    this.slotOf[word] = this.size;
    this.candidates[this.size] = word;
    this.extra[this.size] = 0;
    this.size++;
  }
}
