import { CONTEXT, KEY_WIDTH, NgramLevel } from '../querying/ngram-level.js';
import { BOS, EOS } from '../words/vocabulary.js';

// Module-local copies for the counting loop: transpiled imports are read through getters.
const START = BOS;
const END = EOS;
const AT_CONTEXT = CONTEXT;

/** Fields of an entry's cell after its key: its own adjusted count, then the statistics of its successors. */
export const COUNT = KEY_WIDTH;
/** Sum of the successors' counts. */
export const TOTAL = KEY_WIDTH + 1;
/** Successors with count 1, 2 and 3 or more. */
export const ONES = KEY_WIDTH + 2;
export const TWOS = KEY_WIDTH + 3;
export const THREE_PLUS = KEY_WIDTH + 4;
/** Largest successor count (bounds probabilities for rejection sampling). */
export const MAX_CHILD = KEY_WIDTH + 5;
/** Cell width of entries that can be contexts (8 ints: a cell never straddles a cache line). */
export const CONTEXT_CELL = KEY_WIDTH + 6;
/** Cell width of top-order entries, which only hold COUNT. */
const TOP_CELL = KEY_WIDTH + 1;

/**
 * Kneser-Ney adjusted counts of orders 1..N for one direction, kept up to date sentence by
 * sentence (lmplz's `AdjustCounts`, done incrementally):
 * - the top order and every n-gram starting with `<s>` keep raw counts;
 * - any other lower-order n-gram counts its distinct left extensions (`<s>` included), so its count
 *   grows exactly when a left extension is seen for the first time.
 *
 * The cells of `levels[k]` hold, per entry of order k, its key, its count and, below the top
 * order, the statistics of its successors that the estimator needs (fields above), side by side so
 * one query step reads one cache line. Level 0 is the empty context, whose successors are the
 * unigrams.
 */
export class NgramCounts {
  readonly levels: NgramLevel[];
  /** countsOfCounts[k][c] = number of order-k entries with adjusted count c, c = 1..4. */
  readonly countsOfCounts: Float64Array[];
  /** Bumped on every change, so derived values (discounts, samplers) know when to recompute. */
  version = 0;
  private readonly ids: Int32Array;
  private readonly previous: Int32Array;
  private readonly fresh: Uint8Array;

  constructor(readonly order: number) {
    if (!Number.isInteger(order) || order < 1) throw new RangeError('order must be a positive integer');
    this.levels = [];
    this.countsOfCounts = [];
    for (let k = 0; k <= order; k++) {
      this.countsOfCounts.push(new Float64Array(5));
      const fields = (k < order ? CONTEXT_CELL : TOP_CELL) - KEY_WIDTH;
      const level = new NgramLevel(k <= 1, k === order, k === 0 ? 1 : 16, fields);
      if (k === 0) level.size = 1;
      this.levels.push(level);
    }
    this.ids = new Int32Array(order + 1);
    this.previous = new Int32Array(order + 1);
    this.fresh = new Uint8Array(order + 2);
    this.addEntry(1, 0, BOS);
  }

  /** Counts one sentence given as word ids (no markers): `<s> words </s>`. */
  addSentence(words: ArrayLike<number>): void {
    const order = this.order;
    const ids = this.ids;
    const previous = this.previous;
    const fresh = this.fresh;
    previous[1] = START;
    const length = words.length + 2;
    for (let j = 1; j < length; j++) {
      const word = j === length - 1 ? END : words[j - 1];
      const top = Math.min(order, j + 1);
      fresh.fill(0);
      ids[1] = this.levels[1].find(0, word);
      if (ids[1] < 0) ids[1] = this.addEntry(1, 0, word);
      for (let k = 2; k <= top; k++) {
        const context = previous[k - 1];
        let id = this.levels[k].find(context, word);
        if (id < 0) {
          id = this.addEntry(k, context, word);
          fresh[k] = 1;
        }
        ids[k] = id;
      }
      for (let k = top; k >= 1; k--) {
        if (k === order || k === j + 1 || fresh[k + 1] === 1) this.increment(k, ids[k]);
      }
      previous.set(ids);
    }
    this.version++;
  }

  /** The adjusted count of entry `id` of order k. */
  countOf(k: number, id: number): number {
    const level = this.levels[k];
    return level.cells[id * level.stride + COUNT];
  }

  /** A successor statistic (TOTAL, ONES, ...) of entry `id` of order k < N as a context. */
  statOf(k: number, id: number, field: number): number {
    return this.levels[k].cells[id * CONTEXT_CELL + field];
  }

  /** Number of successors of entry `id` of order k < N. */
  successorCount(k: number, id: number): number {
    const at = id * CONTEXT_CELL;
    const cells = this.levels[k].cells;
    return cells[at + ONES] + cells[at + TWOS] + cells[at + THREE_PLUS];
  }

  /**
   * Loads the entries of order k in bulk (from a snapshot): `contexts` and `words` key them
   * (ignored at order 1, where entry i is word i), `values` are their adjusted counts. The order
   * below must be loaded already and this order empty.
   */
  restoreLevel(k: number, size: number, contexts: Int32Array, words: Int32Array, values: Int32Array): void {
    const level = this.levels[k];
    level.load(size, contexts, words);
    if (k > 1) {
      const parents = this.levels[k - 1].firstChild!;
      for (let id = size - 1; id >= 0; id--) {
        const context = contexts[id];
        level.nextSibling[id] = parents[context];
        parents[context] = id;
      }
    }
    const cells = level.cells;
    const stride = level.stride;
    const parents = this.levels[k - 1].cells;
    const countsOfCounts = this.countsOfCounts[k];
    for (let id = 0; id < size; id++) {
      const c = values[id];
      cells[id * stride + COUNT] = c;
      if (c === 0) continue;
      const at = (k === 1 ? 0 : contexts[id]) * CONTEXT_CELL;
      parents[at + TOTAL] += c;
      parents[at + (c === 1 ? ONES : c === 2 ? TWOS : THREE_PLUS)]++;
      if (c > parents[at + MAX_CHILD]) parents[at + MAX_CHILD] = c;
      if (c <= 4) countsOfCounts[c]++;
    }
    this.version++;
  }

  /** Adds the entry (context, word) at order k, linking it under its context, and returns its id. */
  private addEntry(k: number, context: number, word: number): number {
    const level = this.levels[k];
    const id = level.add(context, word);
    if (k > 1) {
      const parents = this.levels[k - 1].firstChild!;
      level.nextSibling[id] = parents[context];
      parents[context] = id;
    }
    return id;
  }

  private increment(k: number, id: number): void {
    const level = this.levels[k];
    const cells = level.cells;
    const own = id * level.stride;
    const old = cells[own + COUNT]++;
    const parents = this.levels[k - 1].cells;
    const at = (k === 1 ? 0 : cells[own + AT_CONTEXT]) * CONTEXT_CELL;
    parents[at + TOTAL]++;
    if (old + 1 > parents[at + MAX_CHILD]) parents[at + MAX_CHILD] = old + 1;
    if (old === 0) parents[at + ONES]++;
    else if (old === 1) {
      parents[at + ONES]--;
      parents[at + TWOS]++;
    } else if (old === 2) {
      parents[at + TWOS]--;
      parents[at + THREE_PLUS]++;
    }
    const counts = this.countsOfCounts[k];
    if (old >= 1 && old <= 4) counts[old]--;
    if (old + 1 <= 4) counts[old + 1]++;
  }

  /** Number of entries of order k. */
  entries(k: number): number {
    return this.levels[k].size;
  }

  /** Bytes held by typed arrays. */
  get byteLength(): number {
    let bytes = 0;
    for (let k = 1; k <= this.order; k++) bytes += this.levels[k].byteLength;
    return bytes;
  }
}
