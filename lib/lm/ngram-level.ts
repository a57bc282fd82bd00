import { nextCapacity, resizeInt32 } from './growth';

const MAX_LOAD = 0.6;

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
 * `Int32Array` slots. Keys are exact, so there are no hash collisions to reason about. The pair
 * is stored side by side in `keys` (context at 2·id, word at 2·id+1) so a probe touches one
 * cache line. Entries sharing a context are chained (`firstChild` on the order below,
 * `nextSibling` here) so the successors of a context can be walked without scanning.
 *
 * Order 1 is `direct`: the entry id is the word id and the context is always 0 (the root).
 */
export class NgramLevel {
  size = 0;
  capacity: number;
  keys: Int32Array;
  nextSibling: Int32Array;
  /** First successor entry (at the order above) of each entry, -1 when none; null at the top order. */
  firstChild: Int32Array | null;
  /**
   * Open-addressing table, 0 when empty; an occupied slot holds the entry id + 1 in its low bits
   * (under `mask`: a level never holds as many entries as slots) and the key's hash bits above
   * them, so a probe only reads the keys of an entry whose hash bits agree.
   */
  private slots: Int32Array;
  private mask: number;

  constructor(
    readonly direct: boolean,
    readonly isTop: boolean,
    capacity = 16,
  ) {
    this.capacity = capacity;
    this.keys = new Int32Array(direct ? 0 : 2 * capacity);
    this.nextSibling = new Int32Array(direct ? 0 : capacity).fill(-1);
    this.firstChild = isTop ? null : new Int32Array(capacity).fill(-1);
    const slotCount = direct ? 0 : slotCountFor(capacity);
    this.slots = new Int32Array(slotCount);
    this.mask = slotCount - 1;
  }

  /** The context entry id of entry `id` (0 at order 1). */
  contextOf(id: number): number {
    return this.direct ? 0 : this.keys[2 * id];
  }

  /** The word id of entry `id`. */
  wordOf(id: number): number {
    return this.direct ? id : this.keys[2 * id + 1];
  }

  /** The entry id of (context, word), or -1. */
  find(context: number, word: number): number {
    if (this.direct) return word < this.size ? word : -1;
    const slots = this.slots;
    const mask = this.mask;
    const keys = this.keys;
    const h = slotHash(context, word);
    const tag = h & ~mask;
    let i = h & mask;
    for (;;) {
      const slot = slots[i];
      if (slot === 0) return -1;
      if ((slot & ~mask) === tag) {
        const at = 2 * ((slot & mask) - 1);
        if (keys[at + 1] === word && keys[at] === context) return (slot & mask) - 1;
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
    this.keys[2 * id] = context;
    this.keys[2 * id + 1] = word;
    this.nextSibling[id] = -1;
    if (this.firstChild) this.firstChild[id] = -1;
    this.insertSlot(id);
    return id;
  }

  /** Grows the columns (and the slot table) to hold at least `needed` entries. */
  ensureCapacity(needed: number): void {
    if (needed > this.capacity) {
      const capacity = nextCapacity(this.capacity, needed);
      if (!this.direct) {
        this.keys = resizeInt32(this.keys, 2 * capacity);
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
    const keys = this.keys;
    for (let id = 0; id < size; id++) {
      keys[2 * id] = contexts[id];
      keys[2 * id + 1] = words[id];
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
    const h = slotHash(this.keys[2 * id], this.keys[2 * id + 1]);
    let i = h & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = (h & ~mask) | (id + 1);
  }

  /** Bytes held by the typed arrays of this level. */
  get byteLength(): number {
    return (
      this.keys.byteLength +
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
