const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Slots of a text column's cache of decoded texts (a power of two). */
const RECENT_TEXTS = 1024;

/** Room for at least `needed` items, growing by half (by a quarter past 8 M): amortised appends. */
function grownLength(current: number, needed: number): number {
  return Math.max(needed, 16, Math.ceil(current * (current < 1 << 23 ? 1.5 : 1.25)));
}

/** A growable column of 32-bit integers, one per passage: 4 bytes an item instead of 8 in a list of numbers. */
export class IntColumn {
  private values: Int32Array;
  length: number;

  /** Starts from `values` (taken, not copied), all of them in use. */
  constructor(values: Int32Array = new Int32Array(16), length = 0) {
    this.values = values;
    this.length = length;
  }

  static of(values: Int32Array): IntColumn {
    return new IntColumn(values, values.length);
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(grownLength(this.values.length, this.length + 1));
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  /** Item `i` (below `length`). */
  get(i: number): number {
    return this.values[i];
  }

  /** The items in use, as a view. */
  view(): Int32Array {
    return this.values.subarray(0, this.length);
  }
}

/**
 * A growable column of texts kept as UTF-8 bytes back to back, decoded when one is read. Holds a
 * text in about its byte length, with no string object per text, and loads from a snapshot as one
 * copy of bytes rather than one string at a time.
 */
export class TextColumn {
  private bytes: Uint8Array;
  private byteCount: number;
  /** Where text i ends in `bytes`; it starts where text i-1 ends. */
  private readonly ends: IntColumn;
  /**
   * The texts read lately, one slot per `i % RECENT_TEXTS` (-1: empty): a reply reads the same
   * few dozen passages in every stage (rank, extract, cite) and again for the next message on
   * the same topic. A text never changes once pushed (a forgotten document rebuilds the index),
   * so a slot is right for as long as it holds its `i`.
   */
  private readonly recentIds = new Int32Array(RECENT_TEXTS).fill(-1);
  private readonly recentTexts: string[] = new Array(RECENT_TEXTS);

  constructor(bytes: Uint8Array = new Uint8Array(1024), ends: IntColumn = new IntColumn()) {
    this.bytes = bytes;
    this.ends = ends;
    this.byteCount = ends.length === 0 ? 0 : ends.get(ends.length - 1);
  }

  /** A column of `bytes` (taken, not copied) cut at `ends`. */
  static of(bytes: Uint8Array, ends: Int32Array): TextColumn {
    return new TextColumn(bytes, IntColumn.of(ends));
  }

  get length(): number {
    return this.ends.length;
  }

  push(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const needed = this.byteCount + text.length * 3;
    if (needed > this.bytes.length) {
      const grown = new Uint8Array(grownLength(this.bytes.length, needed));
      grown.set(this.bytes.subarray(0, this.byteCount));
      this.bytes = grown;
    }
    this.byteCount += encoder.encodeInto(text, this.bytes.subarray(this.byteCount)).written;
    this.ends.push(this.byteCount);
  }

  /** Text `i` (below `length`). */
  get(i: number): string {
    const slot = i & (RECENT_TEXTS - 1);
    if (this.recentIds[slot] === i) return this.recentTexts[slot];
    const text = decoder.decode(this.bytesOf(i));
    this.recentIds[slot] = i;
    this.recentTexts[slot] = text;
    return text;
  }

  /** The UTF-8 bytes of text `i`, as a view. */
  bytesOf(i: number): Uint8Array {
    return this.bytes.subarray(i === 0 ? 0 : this.ends.get(i - 1), this.ends.get(i));
  }

  /** Every text's bytes back to back, as a view, and where each ends. */
  contents(): { bytes: Uint8Array; ends: Int32Array } {
    return { bytes: this.bytes.subarray(0, this.byteCount), ends: this.ends.view() };
  }
}
