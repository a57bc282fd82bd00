import { nextCapacity, resizeInt32 } from './growth';

const MAX_LOAD = 0.6;

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
 * Entries sharing a context are chained (`firstChild` on the order below, `nextSibling` here)
 * so the successors of a context can be walked without scanning.
 *
 * Order 1 is `direct`: the entry id is the word id and the context is always 0 (the root).
 */
export class NgramLevel {
  size = 0;
  capacity: number;
  context: Int32Array;
  word: Int32Array;
  nextSibling: Int32Array;
  /** First successor entry (at the order above) of each entry, -1 when none; null at the top order. */
  firstChild: Int32Array | null;
  private slots: Int32Array;
  private mask: number;

  constructor(
    readonly direct: boolean,
    readonly isTop: boolean,
    capacity = 16,
  ) {
    this.capacity = capacity;
    this.context = new Int32Array(capacity);
    this.word = new Int32Array(capacity);
    this.nextSibling = new Int32Array(capacity).fill(-1);
    this.firstChild = isTop ? null : new Int32Array(capacity).fill(-1);
    const slotCount = direct ? 0 : slotCountFor(capacity);
    this.slots = new Int32Array(slotCount);
    this.mask = slotCount - 1;
  }

  /** The entry id of (context, word), or -1. */
  find(context: number, word: number): number {
    if (this.direct) return word < this.size ? word : -1;
    const slots = this.slots;
    const mask = this.mask;
    let i = slotHash(context, word) & mask;
    for (;;) {
      const slot = slots[i];
      if (slot === 0) return -1;
      const id = slot - 1;
      if (this.word[id] === word && this.context[id] === context) return id;
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
    this.context[id] = context;
    this.word[id] = word;
    this.nextSibling[id] = -1;
    if (this.firstChild) this.firstChild[id] = -1;
    this.insertSlot(id);
    return id;
  }

  /** Grows the columns (and the slot table) to hold at least `needed` entries. */
  ensureCapacity(needed: number): void {
    if (needed > this.capacity) {
      const capacity = nextCapacity(this.capacity, needed);
      this.context = resizeInt32(this.context, capacity);
      this.word = resizeInt32(this.word, capacity);
      this.nextSibling = resizeInt32(this.nextSibling, capacity);
      this.nextSibling.fill(-1, this.capacity);
      if (this.firstChild) {
        this.firstChild = resizeInt32(this.firstChild, capacity);
        this.firstChild.fill(-1, this.capacity);
      }
      this.capacity = capacity;
    }
    if (!this.direct && needed > this.slots.length * MAX_LOAD) this.rebuildSlots(slotCountFor(needed));
  }

  /** Makes `size` entries whose keys were written straight into the columns findable. */
  reindex(): void {
    if (this.direct) return;
    this.rebuildSlots(slotCountFor(this.size));
  }

  private rebuildSlots(slotCount: number): void {
    this.slots = new Int32Array(slotCount);
    this.mask = slotCount - 1;
    for (let id = 0; id < this.size; id++) this.insertSlot(id);
  }

  private insertSlot(id: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = slotHash(this.context[id], this.word[id]) & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = id + 1;
  }

  /** Bytes held by the typed arrays of this level. */
  get byteLength(): number {
    return (
      this.context.byteLength +
      this.word.byteLength +
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
