import { nextCapacity, resizeInt32 } from './growth.js';

const MAX_LOAD = 0.6;

/** Fields of every entry's cell: its key (context entry id at the order below, word id). */
export const CONTEXT = 0;
export const WORD = 1;
/** Ints of the key; the owner's fields follow it. */
export const KEY_WIDTH = 2;

/** Hash of the key (context, word): its low bits pick the slot, its high bits tag it. */
function slotHash(context: number, word: number): number {
  let h = Math.imul(context ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(word + 0x27d4eb2f, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h;
}

/**
 * The n-grams of one order: entry ids are dense (insertion order) and an entry is the pair
 * (id of its context at the order below, word id), found through an open-addressing table of
 * `Int32Array` slots. Keys are exact, so there are no hash collisions to reason about.
 *
 * Each entry owns a cell of `stride` ints in `cells`: its key, then `fields` ints its owner uses
 * (counts, statistics). Key and values side by side mean a lookup that finds an entry has its
 * values in the same cache line: two random reads (slot, cell) per lookup. Entries sharing a
 * context are chained (`firstChild` on the order below, `nextSibling` here) so the successors of a
 * context can be walked without scanning.
 *
 * Order 1 is `direct`: the entry id is the word id, the context is always 0 (the root) and the
 * key fields of its cells are unused.
 */
export class NgramLevel {
  size = 0;
  capacity: number;
  /** Ints per entry: the key and the owner's fields. */
  readonly stride: number;
  cells: Int32Array;
  nextSibling: Int32Array;
  /** First successor entry (at the order above) of each entry, -1 when none; null at the top order. */
  firstChild: Int32Array | null;
  /**
   * Open-addressing table, 0 when empty; an occupied slot holds the entry id + 1 in its low bits
   * (under `mask`: a level never holds as many entries as slots) and the key's hash bits above
   * them, so a probe only reads the cell of an entry whose hash bits agree.
   */
  private slots: Int32Array;
  private mask: number;

  constructor(
    readonly direct: boolean,
    readonly isTop: boolean,
    capacity = 16,
    fields = 0,
  ) {
    this.capacity = capacity;
    this.stride = KEY_WIDTH + fields;
    this.cells = new Int32Array(this.stride * capacity);
    this.nextSibling = new Int32Array(direct ? 0 : capacity).fill(-1);
    this.firstChild = isTop ? null : new Int32Array(capacity).fill(-1);
    const slotCount = direct ? 0 : slotCountFor(capacity);
    this.slots = new Int32Array(slotCount);
    this.mask = slotCount - 1;
  }

  /** The context entry id of entry `id` (0 at order 1). */
  contextOf(id: number): number {
    return this.direct ? 0 : this.cells[id * this.stride + CONTEXT];
  }

  /** The word id of entry `id`. */
  wordOf(id: number): number {
    return this.direct ? id : this.cells[id * this.stride + WORD];
  }

  /** The entry id of (context, word), or -1. */
  find(context: number, word: number): number {
    if (this.direct) return word < this.size ? word : -1;
    const slots = this.slots;
    const mask = this.mask;
    const cells = this.cells;
    const stride = this.stride;
    const h = slotHash(context, word);
    const tag = h & ~mask;
    let i = h & mask;
    for (;;) {
      const slot = slots[i];
      if (slot === 0) return -1;
      if ((slot & ~mask) === tag) {
        const id = (slot & mask) - 1;
        const at = id * stride;
        if (cells[at + WORD] === word && cells[at + CONTEXT] === context) return id;
      }
      i = (i + 1) & mask;
    }
  }

  /** Adds (context, word), which must be absent, and returns its id. Direct levels extend to `word`. */
  add(context: number, word: number): number {
    if (this.direct) {
      if (word >= this.size) {
        this.ensureCapacity(word + 1);
        this.size = word + 1;
      }
      return word;
    }
    this.ensureCapacity(this.size + 1);
    const id = this.size++;
    const at = id * this.stride;
    this.cells[at + CONTEXT] = context;
    this.cells[at + WORD] = word;
    this.nextSibling[id] = -1;
    if (this.firstChild) this.firstChild[id] = -1;
    this.insertSlot(id);
    return id;
  }

  /** Grows the columns (and the slot table) to hold at least `needed` entries. */
  ensureCapacity(needed: number): void {
    if (needed > this.capacity) {
      const capacity = nextCapacity(this.capacity, needed);
      this.cells = resizeInt32(this.cells, this.stride * capacity);
      if (!this.direct) {
        this.nextSibling = resizeInt32(this.nextSibling, capacity);
        this.nextSibling.fill(-1, this.capacity);
      }
      if (this.firstChild) {
        this.firstChild = resizeInt32(this.firstChild, capacity);
        this.firstChild.fill(-1, this.capacity);
      }
      this.capacity = capacity;
    }
    if (!this.direct && needed > this.slots.length * MAX_LOAD) this.rebuildSlots(slotCountFor(needed));
  }

  /** Sets `size` entries from key columns in bulk (snapshot loading) and makes them findable. */
  load(size: number, contexts: Int32Array, words: Int32Array): void {
    this.ensureCapacity(size);
    this.size = size;
    if (this.direct) return;
    const cells = this.cells;
    const stride = this.stride;
    for (let id = 0, at = 0; id < size; id++, at += stride) {
      cells[at + CONTEXT] = contexts[id];
      cells[at + WORD] = words[id];
    }
    this.rebuildSlots(slotCountFor(size));
  }

  private rebuildSlots(slotCount: number): void {
    this.slots = new Int32Array(slotCount);
    this.mask = slotCount - 1;
    for (let id = 0; id < this.size; id++) this.insertSlot(id);
  }

  private insertSlot(id: number): void {
    const slots = this.slots;
    const mask = this.mask;
    const at = id * this.stride;
    const h = slotHash(this.cells[at + CONTEXT], this.cells[at + WORD]);
    let i = h & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = (h & ~mask) | (id + 1);
  }

  /** Bytes held by the typed arrays of this level. */
  get byteLength(): number {
    return (
      this.cells.byteLength +
      this.nextSibling.byteLength +
      (this.firstChild?.byteLength ?? 0) +
      this.slots.byteLength
    );
  }
}

function slotCountFor(entries: number): number {
  let count = 16;
  while (count * MAX_LOAD < entries) count *= 2;
  return count;
}
