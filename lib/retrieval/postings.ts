import { ownCopy } from '../lm/index.js';

/** Ints per posting: the id of a passage (or section) containing the term, and how often it does. */
const PAIR = 2;
const NONE = new Int32Array(0);

/**
 * The inverted index of one field: per term, its postings as (id, term frequency) pairs of 32-bit
 * ints, ids ascending. Eight bytes a posting instead of the sixteen of a list of numbers. Lists
 * loaded from a snapshot are views of one shared array, exactly their size; a list that grows
 * after that moves to an array of its own, with room to spare.
 */
export class PostingLists {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private lists: Int32Array[] = [];
  /** Ints in use per term. */
  private used: number[] = [];

  /** Number of distinct terms. */
  get size(): number {
    return this.terms.length;
  }

  /** The (id, tf) pairs of `term`, ids ascending (even indexes ids, odd ones frequencies); empty when unknown. */
  pairs(term: string): Int32Array {
    const termId = this.ids.get(term);
    return termId === undefined ? NONE : this.lists[termId].subarray(0, this.used[termId]);
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
      yield [this.terms[termId], this.lists[termId].subarray(0, this.used[termId])];
  }

  /**
   * Loads the lists of a snapshot: `terms` in term id order, and the pairs of term i at
   * `data[starts[i]..starts[i+1])` (`data` is taken, not copied). Each term views the one array.
   */
  load(terms: string[], data: Int32Array, starts: Int32Array): void {
    if (this.terms.length > 0) throw new Error('PostingLists.load: not empty');
    terms.forEach((term, termId) => {
      this.ids.set(term, termId);
      this.terms.push(term);
      this.lists.push(data.subarray(starts[termId], starts[termId + 1]));
      this.used.push(starts[termId + 1] - starts[termId]);
    });
  }

  private termId(term: string): number {
    let termId = this.ids.get(term);
    if (termId === undefined) {
      termId = this.terms.length;
      // A term may be a slice of the chunk it was read from: a copy keeps the chunk from staying alive.
      const own = ownCopy(term);
      this.ids.set(own, termId);
      this.terms.push(own);
      this.lists.push(NONE);
      this.used.push(0);
    }
    return termId;
  }

  private add(termId: number, id: number, tf: number): void {
    let list = this.lists[termId];
    const used = this.used[termId];
    if (used + PAIR > list.length) {
      const grown = new Int32Array(Math.max(4, Math.ceil(list.length * 1.5) + PAIR));
      grown.set(list.subarray(0, used));
      list = grown;
      this.lists[termId] = grown;
    }
    list[used] = id;
    list[used + 1] = tf;
    this.used[termId] = used + PAIR;
  }
}
