import { nextCapacity, resizeInt32 } from './growth';
import { NgramLevel } from './ngram-level';
import { BOS, EOS } from './vocabulary';

/**
 * Kneser-Ney adjusted counts of orders 1..N for one direction, kept up to date sentence by
 * sentence (lmplz's `AdjustCounts`, done incrementally):
 * - the top order and every n-gram starting with `<s>` keep raw counts;
 * - any other lower-order n-gram counts its distinct left extensions (`<s>` included), so its count
 *   grows exactly when a left extension is seen for the first time.
 *
 * Each entry used as a context also carries the statistics of its successors that the estimator
 * needs: the sum of their counts and how many have count 1, 2 and 3+.
 * Arrays are indexed by order: `levels[k]`, `count[k]` for k = 1..N; the context statistics
 * `total[k]`, `ones[k]`, `twos[k]`, `threePlus[k]` for contexts of order k = 0..N-1, order 0 being
 * the empty context (arrays of length 1).
 */
export class NgramCounts {
  readonly levels: NgramLevel[];
  readonly count: Int32Array[];
  readonly total: Int32Array[];
  readonly ones: Int32Array[];
  readonly twos: Int32Array[];
  readonly threePlus: Int32Array[];
  /** Largest count among the successors of each context (bounds probabilities for rejection sampling). */
  readonly maxChild: Int32Array[];
  /** countsOfCounts[k][c] = number of order-k entries with adjusted count c, c = 1..4. */
  readonly countsOfCounts: Float64Array[];
  /** Bumped on every change, so derived values (discounts, samplers) know when to recompute. */
  version = 0;
  private readonly ids: Int32Array;
  private readonly previous: Int32Array;
  private readonly fresh: Uint8Array;

  constructor(readonly order: number) {
    if (!Number.isInteger(order) || order < 1) throw new RangeError(`order must be a positive integer`);
    this.levels = [];
    this.count = [];
    this.total = [new Int32Array(1)];
    this.ones = [new Int32Array(1)];
    this.twos = [new Int32Array(1)];
    this.threePlus = [new Int32Array(1)];
    this.maxChild = [new Int32Array(1)];
    this.countsOfCounts = [];
    for (let k = 0; k <= order; k++) {
      this.countsOfCounts.push(new Float64Array(5));
      if (k === 0) {
        this.levels.push(new NgramLevel(true, false, 1));
        this.count.push(new Int32Array(0));
        continue;
      }
      const level = new NgramLevel(k === 1, k === order);
      this.levels.push(level);
      this.count.push(new Int32Array(level.capacity));
      if (k < order) {
        this.total.push(new Int32Array(level.capacity));
        this.ones.push(new Int32Array(level.capacity));
        this.twos.push(new Int32Array(level.capacity));
        this.threePlus.push(new Int32Array(level.capacity));
        this.maxChild.push(new Int32Array(level.capacity));
      }
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
    previous[1] = BOS;
    const length = words.length + 2;
    for (let j = 1; j < length; j++) {
      const word = j === length - 1 ? EOS : words[j - 1];
      const top = Math.min(order, j + 1);
      fresh.fill(0);
      ids[1] = this.levels[1].find(0, word);
      if (ids[1] < 0) {
        ids[1] = this.addEntry(1, 0, word);
        fresh[1] = 1;
      }
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

  /**
   * Loads the entries of order k in bulk (from a snapshot): `contexts` and `words` key them
   * (ignored at order 1, where entry i is word i), `values` are their adjusted counts. The order
   * below must be loaded already and this order empty.
   */
  restoreLevel(k: number, size: number, contexts: Int32Array, words: Int32Array, values: Int32Array): void {
    const level = this.levels[k];
    this.reserve(k, size);
    level.size = size;
    if (k > 1) {
      level.context.set(contexts.subarray(0, size));
      level.word.set(words.subarray(0, size));
      level.reindex();
      const parents = this.levels[k - 1].firstChild!;
      for (let id = size - 1; id >= 0; id--) {
        const context = contexts[id];
        level.nextSibling[id] = parents[context];
        parents[context] = id;
      }
    }
    const count = this.count[k];
    count.set(values.subarray(0, size));
    const parent = k - 1;
    const total = this.total[parent];
    const ones = this.ones[parent];
    const twos = this.twos[parent];
    const threePlus = this.threePlus[parent];
    const maxChild = this.maxChild[parent];
    const countsOfCounts = this.countsOfCounts[k];
    for (let id = 0; id < size; id++) {
      const c = count[id];
      if (c === 0) continue;
      const context = k === 1 ? 0 : contexts[id];
      total[context] += c;
      if (c > maxChild[context]) maxChild[context] = c;
      if (c === 1) ones[context]++;
      else if (c === 2) twos[context]++;
      else threePlus[context]++;
      if (c <= 4) countsOfCounts[c]++;
    }
    this.version++;
  }

  /** Adds the entry (context, word) at order k, linking it under its context, and returns its id. */
  addEntry(k: number, context: number, word: number): number {
    const level = this.levels[k];
    const before = level.capacity;
    const id = level.add(context, word);
    if (level.capacity !== before) this.growColumns(k);
    if (k > 1) {
      const parents = this.levels[k - 1].firstChild!;
      level.nextSibling[id] = parents[context];
      parents[context] = id;
    }
    this.version++;
    return id;
  }

  private increment(k: number, id: number): void {
    const old = this.count[k][id];
    this.count[k][id] = old + 1;
    const context = k === 1 ? 0 : this.levels[k].context[id];
    const parent = k - 1;
    this.total[parent][context]++;
    if (old + 1 > this.maxChild[parent][context]) this.maxChild[parent][context] = old + 1;
    if (old === 0) this.ones[parent][context]++;
    else if (old === 1) {
      this.ones[parent][context]--;
      this.twos[parent][context]++;
    } else if (old === 2) {
      this.twos[parent][context]--;
      this.threePlus[parent][context]++;
    }
    const counts = this.countsOfCounts[k];
    if (old >= 1 && old <= 4) counts[old]--;
    if (old + 1 <= 4) counts[old + 1]++;
  }

  /** Makes the count and context columns of order k as long as its level's capacity. */
  growColumns(k: number): void {
    const capacity = this.levels[k].capacity;
    this.count[k] = resizeInt32(this.count[k], capacity);
    if (k < this.order) {
      this.total[k] = resizeInt32(this.total[k], capacity);
      this.ones[k] = resizeInt32(this.ones[k], capacity);
      this.twos[k] = resizeInt32(this.twos[k], capacity);
      this.threePlus[k] = resizeInt32(this.threePlus[k], capacity);
      this.maxChild[k] = resizeInt32(this.maxChild[k], capacity);
    }
  }

  /** Reserves room for `entries` entries at order k (snapshot loading). */
  reserve(k: number, entries: number): void {
    const level = this.levels[k];
    if (entries > level.capacity) {
      level.ensureCapacity(nextCapacity(entries, entries));
      this.growColumns(k);
    }
  }

  /** Number of entries of order k. */
  entries(k: number): number {
    return this.levels[k].size;
  }

  /** Bytes held by typed arrays. */
  get byteLength(): number {
    let bytes = 0;
    for (let k = 1; k <= this.order; k++) {
      bytes += this.levels[k].byteLength + this.count[k].byteLength;
      if (k < this.order) {
        bytes += this.total[k].byteLength + this.ones[k].byteLength;
        bytes += this.twos[k].byteLength + this.threePlus[k].byteLength + this.maxChild[k].byteLength;
      }
    }
    return bytes;
  }
}
