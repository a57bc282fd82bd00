import { freeNow, nextCapacity, resizeInt32 } from '../querying/growth.js';
import { NgramLevel } from '../querying/ngram-level.js';
import { BOS, EOS } from '../words/vocabulary.js';

// Module-local copies for the counting loop: transpiled imports are read through getters.
const START = BOS;
const END = EOS;

/** Fields of every entry's record: its word id and its adjusted count. */
export const WORD = 0;
export const COUNT = 1;
/** Ints per record at the top order, where entries are never contexts. */
export const TOP_RECORD = 2;
/**
 * Below the top order an entry's record goes on with the fields of a context: where its successors
 * start in the order above (they end where the next record's start), then their statistics: the
 * sum of their counts and how many have count 1, 2 and 3 or more. Eight ints: a record is one half
 * of a cache line, so finding an entry also brings in what the next query needs of it as a context.
 */
export const FIRST_CHILD = 2;
export const TOTAL = 3;
export const ONES = 4;
export const TWOS = 5;
export const THREE_PLUS = 6;
export const CONTEXT_RECORD = 8;

/** Runs of successors at most this long are scanned (sorted: the scan stops at the first word not below); longer ones go through a hash index. */
const NARROW = 16;
/** Share of the wide index's slots in use (linear probing: about 2 probes to find an entry). */
const WIDE_LOAD = 0.7;
const EMPTY_SLOTS = new Int32Array(1);

/** Hash of the key (context, word). */
function keyHash(context: number, word: number): number {
  let h = Math.imul(context ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(word + 0x27d4eb2f, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

/** The slot of hash `h` among `slotCount` (multiply-shift, so the table needs no power-of-two size). */
function slotOf(h: number, slotCount: number): number {
  return Math.floor((h >>> 0) * slotCount * 2.3283064365386963e-10);
}

/** Groups at most this long are sorted by insertion; longer ones through a packed numeric sort. */
const INSERTION_SORT_MAX = 16;

/**
 * The entries of one order. Entries `0..sorted-1` are in trie order: grouped by context, in the
 * order of the contexts at the order below, and by word within a group, so a context's successors
 * are one contiguous run (scanned when short, found through the wide index when long). Entries `sorted..size-1` were added since the last
 * compaction and are found through `pending`, a hash of their (context, word) keys. Order 1 is
 * direct: entry id = word id, context 0 (the root).
 */
export class CountLevel {
  sorted = 0;
  size = 0;
  /** Ints per record: TOP_RECORD at the top order, CONTEXT_RECORD below it. */
  readonly stride: number;
  /** The records, `stride` ints each; below the top order one more closes the last run of successors. */
  entries!: Int32Array;
  /** The same array as `entries` below the top order (read as context records); null at the top. */
  contexts!: Int32Array | null;
  pending: NgramLevel | null = null;
  /**
   * Per context entry of the order below, its first pending successor's local id in `pending` plus
   * one (0: none); the rest follow through `pending.nextSibling`.
   */
  pendingHeads: Int32Array | null = null;
  /**
   * Hash of the (context, word) keys of the successors of wide contexts (more than `NARROW`
   * successors), whose runs are too long to search quickly. A slot holds entry id + 1 in its low
   * `wideIdBits` bits and, above them, low bits of the key's hash as a tag (0 when empty): a probe
   * reads the record of an entry only when its tag agrees, so passing other keys' slots, and a
   * search that ends at an empty slot, cost no reads outside the slot table.
   */
  private wide: Int32Array = EMPTY_SLOTS;
  private wideIdBits = 0;

  constructor(
    readonly k: number,
    readonly isTop: boolean,
    capacity: number,
  ) {
    this.stride = isTop ? TOP_RECORD : CONTEXT_RECORD;
    this.setRecords(new Int32Array(this.recordsFor(capacity)));
  }

  /**
   * The entry of `word` among the sorted successors of `context` (entry `context` of the order
   * below, whose context records are `parentContexts`), or -1.
   */
  findSorted(parentContexts: Int32Array, context: number, word: number): number {
    const entries = this.entries;
    const stride = this.stride;
    const low = parentContexts[context * CONTEXT_RECORD + FIRST_CHILD];
    const end = parentContexts[(context + 1) * CONTEXT_RECORD + FIRST_CHILD];
    if (end - low > NARROW) {
      const slots = this.wide;
      const slotCount = slots.length;
      const idBits = this.wideIdBits;
      const idMask = (1 << idBits) - 1;
      const h = keyHash(context, word);
      const tag = h << idBits;
      let i = slotOf(h, slotCount);
      for (;;) {
        const slot = slots[i];
        if (slot === 0) return -1;
        if ((slot & ~idMask) === tag) {
          const id = (slot & idMask) - 1;
          if (entries[id * stride + WORD] === word && id >= low && id < end) return id;
        }
        if (++i === slotCount) i = 0;
      }
    }
    for (let id = low; id < end; id++) {
      const found = entries[id * stride + WORD];
      if (found >= word) return found === word ? id : -1;
    }
    return -1;
  }

  /** Indexes the successors of the wide contexts of the order below (after its runs are set). */
  indexWide(parentContexts: Int32Array, parentCount: number): void {
    let wideEntries = 0;
    for (let p = 0; p < parentCount; p++) {
      const n =
        parentContexts[(p + 1) * CONTEXT_RECORD + FIRST_CHILD] -
        parentContexts[p * CONTEXT_RECORD + FIRST_CHILD];
      if (n > NARROW) wideEntries += n;
    }
    const slotCount = Math.ceil(wideEntries / WIDE_LOAD) + 1;
    const slots = new Int32Array(slotCount);
    // Bits for every id + 1 of the level; the rest of the slot is tag.
    const idBits = 32 - Math.clz32(this.size);
    const entries = this.entries;
    for (let p = 0; p < parentCount; p++) {
      const start = parentContexts[p * CONTEXT_RECORD + FIRST_CHILD];
      const end = parentContexts[(p + 1) * CONTEXT_RECORD + FIRST_CHILD];
      if (end - start <= NARROW) continue;
      for (let id = start; id < end; id++) {
        const h = keyHash(p, entries[id * this.stride + WORD]);
        let i = slotOf(h, slotCount);
        while (slots[i] !== 0) if (++i === slotCount) i = 0;
        slots[i] = (h << idBits) | (id + 1);
      }
    }
    if (this.wide !== EMPTY_SLOTS) freeNow(this.wide);
    this.wide = slots;
    this.wideIdBits = idBits;
  }

  /** Ints of the records of `entries` entries (and the closing record below the top order). */
  recordsFor(entries: number): number {
    return (this.isTop ? entries : entries + 1) * this.stride;
  }

  setRecords(records: Int32Array): void {
    this.entries = records;
    this.contexts = this.isTop ? null : records;
  }

  /**
   * Room for `needed` entries. A level that has sorted entries grows by an eighth at a time: what
   * is added to a large trained model is usually little, and the spare room is kept until the
   * next compaction.
   */
  reserve(needed: number): void {
    if (this.recordsFor(needed) <= this.entries.length) return;
    const current = this.entries.length / this.stride;
    const capacity =
      this.sorted > 0 ? Math.max(needed + 1, Math.ceil(current * 1.125)) : nextCapacity(current, needed + 1);
    const old = this.entries;
    this.setRecords(resizeInt32(old, this.recordsFor(capacity)));
    freeNow(old);
  }

  /** Drops the spare capacity (after a compaction or a restore). */
  trim(): void {
    const old = this.entries;
    this.setRecords(old.slice(0, this.recordsFor(this.size)));
    freeNow(old);
  }

  /** Gives back the memory of its arrays at once; the level is unusable after. */
  release(): void {
    freeNow(this.entries);
    if (this.wide !== EMPTY_SLOTS) freeNow(this.wide);
    this.wide = EMPTY_SLOTS;
    this.pending = null;
    this.pendingHeads = null;
  }

  get byteLength(): number {
    return this.entries.byteLength + this.wide.byteLength + (this.pending?.byteLength ?? 0);
  }
}

/**
 * Kneser-Ney adjusted counts of orders 1..N for one direction, kept up to date sentence by
 * sentence (lmplz's `AdjustCounts`, done incrementally):
 * - the top order and every n-gram starting with `<s>` keep raw counts;
 * - any other lower-order n-gram counts its distinct left extensions (`<s>` included), so its count
 *   grows exactly when a left extension is seen for the first time.
 *
 * Stored as a sorted trie, as KenLM's trie lays it out: per order one array of records in trie
 * order, (word, count) at the top order (8 bytes an n-gram) and, below it, (word, count, start of
 * the successors, their statistics) (32 bytes). New n-grams wait in a small hash beside the
 * sorted arrays (`find` and `forEachSuccessor` read both) until `compact` merges them in, which
 * `NgramModel.addText` does once they are a quarter of the sorted ones and the snapshot writer
 * does before writing. Level 0 is the empty context.
 */
export class NgramCounts {
  readonly levels: CountLevel[];
  /** countsOfCounts[k][c] = number of order-k entries with adjusted count c, c = 1..4. */
  readonly countsOfCounts: Float64Array[];
  /** Bumped on every change, so derived values (discounts, samplers) know when to recompute. */
  version = 0;
  /** Entries added since the last compaction, all orders (0: every lookup can take the sorted path). */
  pendingCount = 0;
  private readonly ids: Int32Array;
  private readonly previous: Int32Array;
  private readonly fresh: Uint8Array;

  constructor(readonly order: number) {
    if (!Number.isInteger(order) || order < 1) throw new RangeError('order must be a positive integer');
    this.levels = [];
    this.countsOfCounts = [];
    for (let k = 0; k <= order; k++) {
      this.countsOfCounts.push(new Float64Array(5));
      this.levels.push(new CountLevel(k, k === order, k === 0 ? 1 : 16));
    }
    const root = this.levels[0];
    root.sorted = 1;
    root.size = 1;
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
      ids[1] = this.find(1, 0, word);
      if (ids[1] < 0) ids[1] = this.addEntry(1, 0, word);
      for (let k = 2; k <= top; k++) {
        const context = previous[k - 1];
        let id = this.find(k, context, word);
        if (id < 0) {
          id = this.addEntry(k, context, word);
          fresh[k] = 1;
        }
        ids[k] = id;
      }
      for (let k = top; k >= 1; k--) {
        if (k === order || k === j + 1 || fresh[k + 1] === 1) this.increment(k, ids[k], previous[k - 1]);
      }
      previous.set(ids);
    }
    this.version++;
  }

  /** The entry id of (context, word) at order k, or -1; finds pending entries too. */
  find(k: number, context: number, word: number): number {
    const level = this.levels[k];
    if (k === 1) return word < level.size ? word : -1;
    const parent = this.levels[k - 1];
    if (context < parent.sorted) {
      const id = level.findSorted(parent.contexts!, context, word);
      if (id >= 0) return id;
    }
    if (level.pending === null) return -1;
    const pending = level.pending.find(context, word);
    return pending < 0 ? -1 : level.sorted + pending;
  }

  /** The adjusted count of entry `id` of order k. */
  countOf(k: number, id: number): number {
    const level = this.levels[k];
    return level.entries[id * level.stride + COUNT];
  }

  /** The word id of entry `id` of order k. */
  wordOf(k: number, id: number): number {
    const level = this.levels[k];
    return k === 1 ? id : level.entries[id * level.stride + WORD];
  }

  /** A successor statistic (TOTAL, ONES, ...) of entry `id` of order k < N as a context. */
  statOf(k: number, id: number, field: number): number {
    return this.levels[k].contexts![id * CONTEXT_RECORD + field];
  }

  /** Number of successors of entry `id` of order k < N. */
  successorCount(k: number, id: number): number {
    const at = id * CONTEXT_RECORD;
    const contexts = this.levels[k].contexts!;
    return contexts[at + ONES] + contexts[at + TWOS] + contexts[at + THREE_PLUS];
  }

  /** Entries added since the last compaction, all orders. */
  get pendingEntries(): number {
    return this.pendingCount;
  }

  /**
   * Calls `visit` with every successor entry (order k) of the context entry `context` (order
   * k-1): its sorted run, by word, then those added since, in no order.
   */
  forEachSuccessor(k: number, context: number, visit: (id: number) => void): void {
    const level = this.levels[k];
    const parent = this.levels[k - 1];
    if (context < parent.sorted) {
      const contexts = parent.contexts!;
      const end = contexts[(context + 1) * CONTEXT_RECORD + FIRST_CHILD];
      for (let id = contexts[context * CONTEXT_RECORD + FIRST_CHILD]; id < end; id++) visit(id);
    }
    const pending = level.pending;
    if (pending === null) return;
    const heads = level.pendingHeads!;
    for (
      let local = context < heads.length ? heads[context] - 1 : -1;
      local >= 0;
      local = pending.nextSibling[local]
    )
      visit(level.sorted + local);
  }

  /**
   * Merges the pending entries into trie order, order by order: each order's entries are counting-
   * sorted by the new position of their context, then by word within a context (already sorted but
   * for the newcomers). Renumbers every entry; ids held from before are invalid after it, so the
   * version moves on (samplers drop the tables they keyed by entry id).
   */
  compact(): void {
    if (this.pendingCount === 0) return;
    this.pendingCount = 0;
    this.version++;
    // Every entry's context (an old id of the order below), read before anything moves.
    const contextsOf: Int32Array[] = [];
    for (let k = 2; k <= this.order; k++) contextsOf[k] = this.contextColumn(k);
    const unigrams = this.levels[1];
    unigrams.sorted = unigrams.size;
    unigrams.trim();
    let rank: Int32Array | null = null;
    for (let k = 2; k <= this.order; k++) {
      const next = this.compactLevel(k, rank, contextsOf[k]);
      freeNow(rank);
      freeNow(contextsOf[k]);
      rank = next;
    }
    freeNow(rank);
    if (this.order === 1) return;
    const root = this.levels[0].contexts!;
    root[FIRST_CHILD] = 0;
    root[CONTEXT_RECORD + FIRST_CHILD] = unigrams.size;
  }

  /** The context id of every entry of order k ≥ 2. */
  contextColumn(k: number): Int32Array {
    const level = this.levels[k];
    const parent = this.levels[k - 1];
    const parentContexts = parent.contexts!;
    const column = new Int32Array(level.size);
    for (let p = 0; p < parent.sorted; p++) {
      const end = parentContexts[(p + 1) * CONTEXT_RECORD + FIRST_CHILD];
      for (let id = parentContexts[p * CONTEXT_RECORD + FIRST_CHILD]; id < end; id++) column[id] = p;
    }
    for (let id = level.sorted; id < level.size; id++)
      column[id] = level.pending!.contextOf(id - level.sorted);
    return column;
  }

  /**
   * Compacts order k given `parentRank`, the new position of each old entry of order k-1 (null:
   * unchanged, order 1), and `contexts`, the old context of each entry. Returns the new position
   * of each old entry of order k.
   */
  private compactLevel(k: number, parentRank: Int32Array | null, contextOf: Int32Array): Int32Array {
    const level = this.levels[k];
    const parent = this.levels[k - 1];
    const parentContexts = parent.contexts!;
    const size = level.size;
    const parentSize = parent.size;
    const contextRank = parentRank ? contextOf.map((context) => parentRank[context]) : contextOf;
    const starts = new Int32Array(parentSize + 1);
    for (let id = 0; id < size; id++) starts[contextRank[id] + 1]++;
    for (let r = 0; r < parentSize; r++) starts[r + 1] += starts[r];
    const order = new Int32Array(size);
    const words = new Int32Array(size);
    const next = starts.slice(0, parentSize);
    const entries = level.entries;
    const stride = level.stride;
    for (let id = 0; id < size; id++) {
      const position = next[contextRank[id]]++;
      order[position] = id;
      words[position] = entries[id * stride + WORD];
    }
    sortGroups(order, words, starts, parentSize);
    // The parent, already renumbered, points at the new groups.
    for (let r = 0; r <= parentSize; r++) parentContexts[r * CONTEXT_RECORD + FIRST_CHILD] = starts[r];
    const rank = new Int32Array(size);
    const newEntries = new Int32Array(level.recordsFor(size));
    const contexts = level.contexts;
    const newContexts = contexts ? newEntries : null;
    for (let position = 0; position < size; position++) {
      const id = order[position];
      rank[id] = position;
      newEntries[position * stride + WORD] = words[position];
      newEntries[position * stride + COUNT] = entries[id * stride + COUNT];
      if (newContexts) {
        const from = id * CONTEXT_RECORD;
        const to = position * CONTEXT_RECORD;
        newContexts[to + TOTAL] = contexts![from + TOTAL];
        newContexts[to + ONES] = contexts![from + ONES];
        newContexts[to + TWOS] = contexts![from + TWOS];
        newContexts[to + THREE_PLUS] = contexts![from + THREE_PLUS];
      }
    }
    level.setRecords(newEntries);
    level.sorted = size;
    level.pending = null;
    level.pendingHeads = null;
    level.indexWide(parentContexts, parentSize);
    freeNow(entries);
    freeNow(order);
    freeNow(words);
    freeNow(starts);
    freeNow(next);
    if (contextRank !== contextOf) freeNow(contextRank);
    return rank;
  }

  /**
   * Loads order k in bulk from a snapshot: `records` (made for `recordsFor(capacity)` ints, room for
   * entries to come allowed) holds the word and the adjusted count of each of the `size` entries in
   * trie order, and `successors[p]` how many of them the context p of order k-1 has (ignored at
   * order 1, where entry i is word i). The order below must be loaded already and this order empty.
   */
  restoreLevel(k: number, size: number, successors: Int32Array, records: Int32Array): void {
    const level = this.levels[k];
    const parent = this.levels[k - 1];
    const parentContexts = parent.contexts!;
    level.setRecords(records);
    const stride = level.stride;
    level.size = size;
    level.sorted = size;
    level.pending = null;
    level.pendingHeads = null;
    if (k === 1) {
      parentContexts[FIRST_CHILD] = 0;
      parentContexts[CONTEXT_RECORD + FIRST_CHILD] = size;
      // The markers new counts start with were the only pending entries; the restored ones replace them.
      this.pendingCount = 0;
    } else {
      let start = 0;
      for (let p = 0; p < parent.size; p++) {
        parentContexts[p * CONTEXT_RECORD + FIRST_CHILD] = start;
        start += successors[p];
      }
      parentContexts[parent.size * CONTEXT_RECORD + FIRST_CHILD] = start;
    }
    const countsOfCounts = this.countsOfCounts[k];
    let p = 0;
    for (let id = 0; id < size; id++) {
      const c = records[id * stride + COUNT];
      if (c === 0) continue;
      if (k > 1) while (parentContexts[(p + 1) * CONTEXT_RECORD + FIRST_CHILD] <= id) p++;
      const at = p * CONTEXT_RECORD;
      parentContexts[at + TOTAL] += c;
      parentContexts[at + (c === 1 ? ONES : c === 2 ? TWOS : THREE_PLUS)]++;
      if (c <= 4) countsOfCounts[c]++;
    }
    if (k > 1) level.indexWide(parentContexts, parent.size);
    this.version++;
  }

  /** Adds the entry (context, word) at order k and returns its id. */
  private addEntry(k: number, context: number, word: number): number {
    const level = this.levels[k];
    if (k === 1) {
      if (word >= level.size) {
        this.pendingCount += word + 1 - level.size;
        level.reserve(word + 1);
        for (let w = level.size; w <= word; w++) level.entries[w * level.stride + WORD] = w;
        level.size = word + 1;
      }
      return word;
    }
    level.pending ??= new NgramLevel(false, true);
    const local = level.pending.add(context, word);
    let heads = level.pendingHeads;
    if (heads === null || context >= heads.length) {
      const grown = new Int32Array(
        nextCapacity(heads?.length ?? 0, Math.max(context + 1, this.levels[k - 1].size)),
      );
      if (heads) grown.set(heads);
      heads = grown;
      level.pendingHeads = grown;
    }
    level.pending.nextSibling[local] = heads[context] - 1;
    heads[context] = local + 1;
    this.pendingCount++;
    const id = level.sorted + local;
    level.reserve(id + 1);
    level.size = id + 1;
    level.entries[id * level.stride + WORD] = word;
    return id;
  }

  /** Adds one to the count of entry `id` of order k, whose context is `context` (ignored at order 1). */
  private increment(k: number, id: number, context: number): void {
    const level = this.levels[k];
    const own = id * level.stride + COUNT;
    const old = level.entries[own]++;
    const parents = this.levels[k - 1].contexts!;
    const at = (k === 1 ? 0 : context) * CONTEXT_RECORD;
    parents[at + TOTAL]++;
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

  /** The context entry id of entry `id` of order k ≥ 2 (a binary search over the context starts when sorted). */
  contextOf(k: number, id: number): number {
    const level = this.levels[k];
    if (id >= level.sorted) return level.pending!.contextOf(id - level.sorted);
    const parent = this.levels[k - 1];
    const contexts = parent.contexts!;
    let low = 0;
    let high = parent.sorted - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (contexts[mid * CONTEXT_RECORD + FIRST_CHILD] <= id) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** Number of entries of order k. */
  entries(k: number): number {
    return this.levels[k].size;
  }

  /**
   * Gives back the memory of every array at once, rather than when the garbage collector gets to
   * it (a snapshot write lets a direction go just before it decodes the other). The counts are
   * unusable after: their levels are gone.
   */
  release(): void {
    for (const level of this.levels) level.release();
    this.levels.length = 0;
  }

  /** Bytes held by typed arrays. */
  get byteLength(): number {
    let bytes = 0;
    for (let k = 0; k <= this.order; k++) bytes += this.levels[k].byteLength;
    return bytes;
  }
}

/** Sorts each group [starts[r], starts[r+1]) of (order, words) by word; words are distinct within a group. */
function sortGroups(order: Int32Array, words: Int32Array, starts: Int32Array, groups: number): void {
  let keys: Float64Array | null = null;
  let ids: Int32Array | null = null;
  for (let r = 0; r < groups; r++) {
    const from = starts[r];
    const to = starts[r + 1];
    let sorted = true;
    for (let i = from + 1; i < to && sorted; i++) sorted = words[i] > words[i - 1];
    if (sorted) continue;
    const n = to - from;
    if (n <= INSERTION_SORT_MAX) {
      for (let i = from + 1; i < to; i++) {
        const id = order[i];
        const word = words[i];
        let j = i - 1;
        for (; j >= from && words[j] > word; j--) {
          order[j + 1] = order[j];
          words[j + 1] = words[j];
        }
        order[j + 1] = id;
        words[j + 1] = word;
      }
      continue;
    }
    // Numbers word·n + index (exact: vocabulary × group size is far below 2^53), sorted natively.
    if (!keys || keys.length < n) {
      keys = new Float64Array(n);
      ids = new Int32Array(n);
    }
    const groupKeys = keys.subarray(0, n);
    for (let j = 0; j < n; j++) groupKeys[j] = words[from + j] * n + j;
    groupKeys.sort();
    ids!.set(order.subarray(from, to));
    for (let j = 0; j < n; j++) {
      const source = groupKeys[j] % n;
      words[from + j] = (groupKeys[j] - source) / n;
      order[from + j] = ids![source];
    }
  }
}
