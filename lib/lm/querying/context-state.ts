/**
 * Where a scorer stands in a sentence: `ids[k]` is the entry id at order k of the k-gram ending at
 * the last token, for k = 1..length. A fresh sentence has length 1 (`<s>`); after an unknown word
 * the length is 0, which is how KenLM resets the context.
 */
export interface ContextState {
  ids: Int32Array;
  length: number;
}

/** A state of room for `order` orders, at a sentence start when `bos` is given. */
export function createContextState(order: number, bos?: number): ContextState {
  const ids = new Int32Array(order + 1);
  if (bos === undefined) return { ids, length: 0 };
  ids[1] = bos;
  return { ids, length: 1 };
}
