/** Hash of the next UTF-16 code unit of a word, from the hash of the units before it. */
function step(hash: number, unit: number): number {
  return Math.imul(hash ^ unit, 0x01000193);
}

const SEED = 0x811c9dc5 | 0;
/** Last hash step, so that words differing in their last unit spread over the slots too. */
function finish(hash: number): number {
  const h = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

/**
 * True for what `\s` matches in a JavaScript regular expression (how the `whitespace` tokenizer
 * splits): ASCII tab to carriage return and space, and the Unicode spaces and line separators.
 */
export function isSpace(unit: number): boolean {
  if (unit <= 32) return unit === 32 || (unit >= 9 && unit <= 13);
  if (unit < 0xa0) return false;
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

const NEWLINE = 10;

/**
 * Bytes taken by the whitespace character (what `\s` matches) that starts at `bytes[i]` of UTF-8
 * text, 0 when another character starts there. No whitespace needs four bytes.
 */
function spaceBytes(bytes: Uint8Array, i: number, end: number): number {
  const b = bytes[i];
  if (b < 0x80) return b === 32 || (b >= 9 && b <= 13) ? 1 : 0;
  if ((b & 0xe0) === 0xc0 && i + 1 < end) return isSpace(((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f)) ? 2 : 0;
  if ((b & 0xf0) === 0xe0 && i + 2 < end) {
    const unit = ((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f);
    return isSpace(unit) ? 3 : 0;
  }
  return 0;
}

/** The words as UTF-8 bytes in an open-addressing table, as `WordIndex` holds their UTF-16 units. */
interface Utf8Table {
  /** Word id + 1 per slot, 0 when empty. */
  slots: Int32Array;
  mask: number;
  /** The bytes of every word, one after the other; word id i spans starts[i]..starts[i+1]. */
  units: Uint8Array;
  starts: Int32Array;
}

/** Word ids in `ids[0..count-1]`: a buffer reused from line to line. */
export interface WordIds {
  ids: Int32Array;
  count: number;
}

/**
 * The word ids of whitespace-separated text read straight from its characters: no token strings
 * and no `Map` lookups (each hashes a fresh string), but a hash computed while scanning and an
 * open-addressing table whose words sit in one array of UTF-16 units. A snapshot of a vocabulary's
 * words (`Vocabulary.index`), answering as `Vocabulary.lookup` does.
 */
export class WordIndex {
  /** Word id + 1 per slot, 0 when empty. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** The UTF-16 units of every word, one after the other; word id i spans starts[i]..starts[i+1]. */
  private readonly units: Uint16Array;
  private readonly starts: Int32Array;
  /** Words indexed: the vocabulary's size when this was built. */
  readonly size: number;
  /** The same words as UTF-8 bytes, for reading a file's bytes (built on first use). */
  private utf8: Utf8Table | null = null;

  /**
   * Indexes `words` (id = position); lookups answer `unknown` for a word not among them or whose
   * id is below `firstWord` (the markers).
   */
  constructor(
    private readonly words: readonly string[],
    private readonly unknown: number,
    private readonly firstWord: number,
  ) {
    this.size = words.length;
    let unitCount = 0;
    for (const word of words) unitCount += word.length;
    this.units = new Uint16Array(unitCount);
    this.starts = new Int32Array(words.length + 1);
    let slotCount = 16;
    while (slotCount < words.length * 2) slotCount *= 2;
    this.slots = new Int32Array(slotCount);
    this.mask = slotCount - 1;
    let at = 0;
    words.forEach((word, id) => {
      this.starts[id] = at;
      let hash = SEED;
      for (let i = 0; i < word.length; i++) {
        const unit = word.charCodeAt(i);
        this.units[at++] = unit;
        hash = step(hash, unit);
      }
      let slot = finish(hash) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id + 1;
    });
    this.starts[words.length] = at;
  }

  /** Sets `into` to the ids of the whitespace-separated words of `text` (its array grown when short). */
  readWords(text: string, into: WordIds): void {
    let ids = into.ids;
    let count = 0;
    const length = text.length;
    let i = 0;
    for (;;) {
      while (i < length && isSpace(text.charCodeAt(i))) i++;
      if (i === length) break;
      const start = i;
      let hash = SEED;
      for (; i < length; i++) {
        const unit = text.charCodeAt(i);
        if (isSpace(unit)) break;
        hash = step(hash, unit);
      }
      if (count === ids.length) {
        const grown = new Int32Array(Math.max(16, ids.length * 2));
        grown.set(ids);
        ids = grown;
      }
      ids[count++] = this.find(text, start, i, finish(hash));
    }
    into.ids = ids;
    into.count = count;
  }

  /**
   * Reads the ids of the whitespace-separated words of the line of UTF-8 `bytes` that starts at
   * `from` (up to the next `\n`) into `into`, as `readWords` reads the same line decoded, and
   * returns where the next line starts. Reading a file this way needs no string at all.
   */
  readLineBytes(bytes: Uint8Array, from: number, into: WordIds): number {
    const table = this.utf8Table();
    const end = bytes.length;
    let ids = into.ids;
    let count = 0;
    let i = from;
    for (;;) {
      while (i < end && bytes[i] !== NEWLINE) {
        const space = spaceBytes(bytes, i, end);
        if (space === 0) break;
        i += space;
      }
      if (i >= end || bytes[i] === NEWLINE) break;
      const start = i;
      let hash = SEED;
      for (; i < end; i++) {
        const b = bytes[i];
        if (b < 0x80 ? b === 32 || (b >= 9 && b <= 13) : spaceBytes(bytes, i, end) > 0) break;
        hash = step(hash, b);
      }
      if (count === ids.length) {
        const grown = new Int32Array(Math.max(16, ids.length * 2));
        grown.set(ids);
        ids = grown;
      }
      ids[count++] = this.findBytes(table, bytes, start, i, finish(hash));
    }
    into.ids = ids;
    into.count = count;
    return i < end ? i + 1 : end;
  }

  private utf8Table(): Utf8Table {
    if (this.utf8) return this.utf8;
    const encoder = new TextEncoder();
    const encoded = this.words.map((word) => encoder.encode(word));
    const units = new Uint8Array(encoded.reduce((sum, word) => sum + word.length, 0));
    const starts = new Int32Array(encoded.length + 1);
    const slots = new Int32Array(this.slots.length);
    const mask = this.mask;
    let at = 0;
    encoded.forEach((word, id) => {
      starts[id] = at;
      let hash = SEED;
      for (const unit of word) {
        units[at++] = unit;
        hash = step(hash, unit);
      }
      let slot = finish(hash) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    });
    starts[encoded.length] = at;
    this.utf8 = { slots, mask, units, starts };
    return this.utf8;
  }

  /** The id of the word `bytes[start..end-1]` whose finished hash is `hash`. */
  private findBytes(table: Utf8Table, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const { slots, mask, units, starts } = table;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = slots[slot] - 1;
      if (id < 0) return this.unknown;
      const from = starts[id];
      if (starts[id + 1] - from !== length) continue;
      let same = true;
      for (let j = 0; j < length; j++) {
        if (units[from + j] !== bytes[start + j]) {
          same = false;
          break;
        }
      }
      if (same) return id < this.firstWord ? this.unknown : id;
    }
  }

  /** The id of the word `text[start..end-1]` whose finished hash is `hash`. */
  private find(text: string, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const units = this.units;
    const starts = this.starts;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = slots[slot] - 1;
      if (id < 0) return this.unknown;
      const from = starts[id];
      if (starts[id + 1] - from !== length) continue;
      let same = true;
      for (let j = 0; j < length; j++) {
        if (units[from + j] !== text.charCodeAt(start + j)) {
          same = false;
          break;
        }
      }
      if (same) return id < this.firstWord ? this.unknown : id;
    }
  }
}
