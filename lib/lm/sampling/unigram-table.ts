import { BOS, UNK } from '../words/vocabulary.js';
import { searchCumulative } from './cumulative.js';

interface Tempered {
  cumulative: Float64Array;
  total: number;
}

/**
 * Unigram probabilities of the words a generator may emit (`<s>` and `<unk>` held at 0), plus what
 * tempered sampling needs from them: Σ p^(1/T), a cumulative table per temperature, and the words
 * by falling probability for argmax. Built once per model version.
 */
export class UnigramTable {
  private readonly tempered = new Map<number, Tempered>();
  private ranking: Int32Array | null = null;

  /** The largest probability in the table. */
  readonly max: number;

  constructor(readonly probs: Float64Array) {
    probs[UNK] = 0;
    if (probs.length > BOS) probs[BOS] = 0;
    let max = 0;
    for (const p of probs) if (p > max) max = p;
    this.max = max;
  }

  /** A word drawn in proportion to p^(1/T) (inverse = 1/T). */
  draw(inverse: number, random: () => number): number {
    const { cumulative, total } = this.temperedBy(inverse);
    const target = random() * total;
    return searchCumulative(cumulative, target);
  }

  /** Cumulative p^(1/T) over word ids, for inverse-temperature `inverse`. */
  temperedBy(inverse: number): Tempered {
    let table = this.tempered.get(inverse);
    if (!table) {
      const cumulative = new Float64Array(this.probs.length);
      let total = 0;
      for (let w = 0; w < this.probs.length; w++) {
        const p = this.probs[w];
        total += p > 0 ? (inverse === 1 ? p : p ** inverse) : 0;
        cumulative[w] = total;
      }
      table = { cumulative, total };
      this.tempered.set(inverse, table);
    }
    return table;
  }

  /** Word ids by falling probability. */
  byProbability(): Int32Array {
    if (!this.ranking) {
      const ids = Int32Array.from(this.probs.keys());
      this.ranking = ids.sort((a, b) => this.probs[b] - this.probs[a]);
    }
    return this.ranking;
  }
}
