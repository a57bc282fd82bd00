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

/**
 * Words by their code units (UTF-16 units of strings, or UTF-8 bytes) in an open-addressing table.
 */
interface UnitTable {
  /** Word id + 1 per slot, 0 when empty. */
  slots: Int32Array;
  mask: number;
  /** The units of every word, one after the other; word id i spans starts[i]..starts[i+1]. */
  units: Uint8Array | Uint16Array;
  starts: Int32Array;
}

/** Indexes words given as their units (id = position), hashed as the readers hash them while scanning. */
function unitTable(
  words: readonly ArrayLike<number>[],
  Units: Uint8ArrayConstructor | Uint16ArrayConstructor,
): UnitTable {
  let unitCount = 0;
  for (const word of words) unitCount += word.length;
  const units = new Units(unitCount);
  const starts = new Int32Array(words.length + 1);
  let slotCount = 16;
  while (slotCount < words.length * 2) slotCount *= 2;
  const slots = new Int32Array(slotCount);
  const mask = slotCount - 1;
  let at = 0;
  words.forEach((word, id) => {
    starts[id] = at;
    let hash = SEED;
    for (let i = 0; i < word.length; i++) {
      units[at++] = word[i];
      hash = step(hash, word[i]);
    }
    let slot = finish(hash) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = id + 1;
  });
  starts[words.length] = at;
  return { slots, mask, units, starts };
}

/** `ids` with room for one more after `count` (grown when full). */
function withRoom(ids: Int32Array, count: number): Int32Array {
  if (count < ids.length) return ids;
  const grown = new Int32Array(Math.max(16, ids.length * 2));
  grown.set(ids);
  return grown;
}

/** Word ids in `ids[0..count-1]`: a buffer reused from line to line. */
export interface WordIds {
  ids: Int32Array;
  count: number;
}

/**
 * The word ids of whitespace-separated text read straight from its characters: no token strings
 * and no `Map` lookups (each hashes a fresh string), but a hash computed while scanning and an
 * open-addressing table whose words sit in one array of units: UTF-16 for strings, UTF-8 for a
 * file's bytes. A snapshot of a vocabulary's words (`Vocabulary.index`), answering as
 * `Vocabulary.lookup` does.
 */
export class WordIndex {
  /** The words by their UTF-16 units, as strings hold them. */
  private readonly utf16: UnitTable;
  /** The same words as UTF-8 bytes, for reading a file's bytes (built on first use). */
  private utf8: UnitTable | null = null;
  /** Words indexed: the vocabulary's size when this was built. */
  readonly size: number;

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
    this.utf16 = unitTable(
      words.map((word) => Uint16Array.from({ length: word.length }, (_, i) => word.charCodeAt(i))),
      Uint16Array,
    );
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
      ids = withRoom(ids, count);
      ids[count++] = this.lookUp(this.utf16, text, start, i, finish(hash));
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
      ids = withRoom(ids, count);
      ids[count++] = this.lookUp(table, bytes, start, i, finish(hash));
    }
    into.ids = ids;
    into.count = count;
    return i < end ? i + 1 : end;
  }

  private utf8Table(): UnitTable {
    if (!this.utf8) {
      const encoder = new TextEncoder();
      this.utf8 = unitTable(
        this.words.map((word) => encoder.encode(word)),
        Uint8Array,
      );
    }
    return this.utf8;
  }

  /** The id of the word `source[start..end-1]` (units of a string, or bytes) whose finished hash is `hash`. */
  private lookUp(
    table: UnitTable,
    source: string | Uint8Array,
    start: number,
    end: number,
    hash: number,
  ): number {
    const { slots, mask, units, starts } = table;
    const text = typeof source === 'string' ? source : null;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = slots[slot] - 1;
      if (id < 0) return this.unknown;
      const from = starts[id];
      if (starts[id + 1] - from !== length) continue;
      let same = true;
      for (let j = 0; j < length; j++) {
        const unit = text !== null ? text.charCodeAt(start + j) : (source as Uint8Array)[start + j];
        if (units[from + j] !== unit) {
          same = false;
          break;
        }
      }
      if (same) return id < this.firstWord ? this.unknown : id;
    }
  }
}
