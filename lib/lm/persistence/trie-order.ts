import { CONTEXT, type NgramLevel, WORD } from '../querying/ngram-level.js';

/** Groups at most this long are sorted in place; longer ones through a packed numeric sort. */
const INSERTION_SORT_MAX = 16;

/** The entries of one order laid out as a snapshot writes them. */
export interface TrieOrder {
  /** Entry ids sorted by (rank of their context, word id). */
  ids: Int32Array;
  /** The word and the field `field` (the count) of each entry of `ids`. */
  words: Int32Array;
  values: Int32Array;
  /** The successors of the context of rank r are `ids[starts[r]..starts[r + 1]-1]`. */
  starts: Int32Array;
}

/**
 * Sorts the entries of `level` by the rank of their context (`contextRank[id]` for the context
 * entries of the order below, `contextCount` of them), then by word. A counting sort by context
 * rank reads the cells in id order and carries each entry's word and `field` along; then each
 * context's successors are sorted by word, which they mostly already are in a model restored
 * from a snapshot. No walk of the successor chains and no random reads of the cells, which is
 * what makes `serialize` fast.
 */
export function trieOrder(
  level: NgramLevel,
  contextRank: Int32Array,
  contextCount: number,
  field: number,
): TrieOrder {
  const size = level.size;
  const cells = level.cells;
  const stride = level.stride;
  const starts = new Int32Array(contextCount + 1);
  for (let at = 0; at < size * stride; at += stride) starts[contextRank[cells[at + CONTEXT]] + 1]++;
  for (let r = 0; r < contextCount; r++) starts[r + 1] += starts[r];
  const ids = new Int32Array(size);
  const words = new Int32Array(size);
  const values = new Int32Array(size);
  const next = starts.slice(0, contextCount);
  for (let id = 0, at = 0; id < size; id++, at += stride) {
    const position = next[contextRank[cells[at + CONTEXT]]]++;
    ids[position] = id;
    words[position] = cells[at + WORD];
    values[position] = cells[at + field];
  }
  const order = { ids, words, values, starts };
  const scratch = sortScratch(starts, contextCount);
  for (let r = 0; r < contextCount; r++) {
    const from = starts[r];
    const to = starts[r + 1];
    for (let i = from + 1; i < to; i++) {
      if (words[i] < words[i - 1]) {
        if (to - from <= INSERTION_SORT_MAX) insertionSort(order, from, to);
        else packedSort(order, from, to, scratch);
        break;
      }
    }
  }
  return order;
}

/** Room for the longest group, shared by the packed sorts of one level. */
interface SortScratch {
  keys: Float64Array;
  ids: Int32Array;
  values: Int32Array;
}

function sortScratch(starts: Int32Array, contextCount: number): SortScratch {
  let longest = 0;
  for (let r = 0; r < contextCount; r++) longest = Math.max(longest, starts[r + 1] - starts[r]);
  if (longest <= INSERTION_SORT_MAX) longest = 0;
  return { keys: new Float64Array(longest), ids: new Int32Array(longest), values: new Int32Array(longest) };
}

/** Sorts positions from..to-1 of the columns by word, in place; words are distinct within a context. */
function insertionSort({ ids, words, values }: TrieOrder, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const id = ids[i];
    const word = words[i];
    const value = values[i];
    let j = i - 1;
    for (; j >= from && words[j] > word; j--) {
      ids[j + 1] = ids[j];
      words[j + 1] = words[j];
      values[j + 1] = values[j];
    }
    ids[j + 1] = id;
    words[j + 1] = word;
    values[j + 1] = value;
  }
}

/** The same through numbers word·n + index (exact: vocabulary × entries is far below 2^53), sorted natively. */
function packedSort({ ids, words, values }: TrieOrder, from: number, to: number, scratch: SortScratch): void {
  const n = to - from;
  const keys = scratch.keys.subarray(0, n);
  for (let j = 0; j < n; j++) keys[j] = words[from + j] * n + j;
  keys.sort();
  scratch.ids.set(ids.subarray(from, to));
  scratch.values.set(values.subarray(from, to));
  for (let j = 0; j < n; j++) {
    const source = keys[j] % n;
    words[from + j] = (keys[j] - source) / n;
    ids[from + j] = scratch.ids[source];
    values[from + j] = scratch.values[source];
  }
}
