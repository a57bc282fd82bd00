import { ownCopy } from '../lm/index.js';

/** Ints per posting: the id of a passage (or section) containing the term, and how often it does. */
const PAIR = 2;
const NONE = new Int32Array(0);

/**
 * The inverted index of one field: per term, its postings as (id, term frequency) pairs of 32-bit
 * ints, ids ascending. Eight bytes a posting instead of the sixteen of a list of numbers. Packed
 * lists (loaded from a snapshot, or packed after one is written) lie back to back in one array,
 * with no object per term; a list that grows after that moves to an array of its own, with room
 * to spare, until the next packing.
 */
export class PostingLists {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  /** Ints in use per term. */
  private used: number[] = [];
  private packed: Int32Array = NONE;
  /** Where each packed term's pairs start in `packed` (terms from `packedTerms` on have none). */
  private starts: Int32Array = new Int32Array(1);
  private packedTerms = 0;
  /** The lists of terms that grew after packing or came after it. */
  private readonly own = new Map<number, Int32Array>();

  /** Number of distinct terms. */
  get size(): number {
    return this.terms.length;
  }

  /** The (id, tf) pairs of `term`, ids ascending (even indexes ids, odd ones frequencies); empty when unknown. */
  pairs(term: string): Int32Array {
    const termId = this.ids.get(term);
    return termId === undefined ? NONE : this.listOf(termId);
  }

  /** How many ids contain `term`. */
  frequency(term: string): number {
    const termId = this.ids.get(term);
    return termId === undefined ? 0 : this.used[termId] / PAIR;
  }

  /** Adds the postings of one id (higher than any added before) from its terms, repeats counted. */
  addAll(id: number, terms: readonly string[]): void {
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) this.add(this.termId(term), id, tf);
  }

  /** Every term with its pairs, in the order the terms were first seen (for snapshots). */
  *entries(): Generator<[string, Int32Array]> {
    for (let termId = 0; termId < this.terms.length; termId++)
      yield [this.terms[termId], this.listOf(termId)];
  }

  /**
   * Loads the lists of a snapshot: `terms` in term id order, and the pairs of term i at
   * `data[starts[i]..starts[i+1])` (`data` and `starts` are taken, not copied).
   */
  load(terms: string[], data: Int32Array, starts: Int32Array): void {
    if (this.terms.length > 0) throw new Error('PostingLists.load: not empty');
    terms.forEach((term, termId) => {
      this.ids.set(term, termId);
      this.terms.push(term);
      this.used.push(starts[termId + 1] - starts[termId]);
    });
    this.packed = data;
    this.starts = starts;
    this.packedTerms = terms.length;
  }

  /** Lays every list back to back in one array again (after training added to many of them). */
  pack(): void {
    if (this.own.size === 0) return;
    const starts = new Int32Array(this.terms.length + 1);
    for (let termId = 0; termId < this.terms.length; termId++)
      starts[termId + 1] = starts[termId] + this.used[termId];
    const packed = new Int32Array(starts[this.terms.length]);
    for (let termId = 0; termId < this.terms.length; termId++)
      packed.set(this.listOf(termId), starts[termId]);
    this.packed = packed;
    this.starts = starts;
    this.packedTerms = this.terms.length;
    this.own.clear();
  }

  private listOf(termId: number): Int32Array {
    const own = this.own.get(termId);
    if (own) return own.subarray(0, this.used[termId]);
    if (termId >= this.packedTerms) return NONE;
    const start = this.starts[termId];
    return this.packed.subarray(start, start + this.used[termId]);
  }

  private termId(term: string): number {
    let termId = this.ids.get(term);
    if (termId === undefined) {
      termId = this.terms.length;
      // A term may be a slice of the chunk it was read from: a copy keeps the chunk from staying alive.
      const own = ownCopy(term);
      this.ids.set(own, termId);
      this.terms.push(own);
      this.used.push(0);
    }
    return termId;
  }

  private add(termId: number, id: number, tf: number): void {
    const used = this.used[termId];
    let list = this.own.get(termId);
    if (!list || used + PAIR > list.length) {
      // A packed list has no room after it: it moves out, as a full own list grows.
      const grown = new Int32Array(Math.max(4, Math.ceil(used * 1.5) + PAIR));
      grown.set(list ? list.subarray(0, used) : this.listOf(termId));
      list = grown;
      this.own.set(termId, grown);
    }
    list[used] = id;
    list[used + 1] = tf;
    this.used[termId] = used + PAIR;
  }
}
