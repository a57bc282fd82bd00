import type { NgramCounts } from '../estimation/ngram-counts.js';
import { searchCumulative } from './cumulative.js';

/** Contexts with more successors than this are worth a cumulative table. */
export const CACHED_SUCCESSORS = 32;
/** Tables kept before the cache starts over (bounds its memory). */
const MAX_TABLES = 4096;

interface SuccessorTable {
  words: Int32Array;
  cumulative: Float64Array;
}

/**
 * Cumulative discounted counts of the successors of frequently sampled contexts, so drawing a
 * successor of a context with thousands of them is a binary search rather than a walk. Tables
 * are built on first use and dropped whenever the counts change.
 */
export class SuccessorCache {
  private readonly tables = new Map<number, SuccessorTable>();
  private version = -1;

  constructor(private readonly counts: NgramCounts) {}

  /** The successor of context `context` (order k-1) at which the running discounted count passes `target`. */
  pick(k: number, context: number, discounts: Float64Array, target: number): number {
    if (this.version !== this.counts.version) {
      this.tables.clear();
      this.version = this.counts.version;
    }
    const key = k * 0x100000000 + context;
    let table = this.tables.get(key);
    if (!table) {
      if (this.tables.size >= MAX_TABLES) this.tables.clear();
      table = this.build(k, context, discounts);
      this.tables.set(key, table);
    }
    const { cumulative, words } = table;
    return words[searchCumulative(cumulative, target)];
  }

  private build(k: number, context: number, discounts: Float64Array): SuccessorTable {
    const counts = this.counts;
    const level = counts.levels[k];
    const size = counts.successorCount(k - 1, context);
    const words = new Int32Array(size);
    const cumulative = new Float64Array(size);
    let sum = 0;
    let i = 0;
    for (
      let id = counts.levels[k - 1].firstChild![context];
      id >= 0 && i < size;
      id = level.nextSibling[id]
    ) {
      const c = counts.countOf(k, id);
      sum += c - discounts[Math.min(c, 3)];
      words[i] = level.wordOf(id);
      cumulative[i] = sum;
      i++;
    }
    return { words, cumulative };
  }
}
