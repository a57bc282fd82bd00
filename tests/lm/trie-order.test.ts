import { describe, expect, it } from 'vitest';
import { trieOrder } from '../../lib/lm/persistence/trie-order.js';
import { CONTEXT, NgramLevel, WORD } from '../../lib/lm/querying/ngram-level.js';

const FIELD = WORD + 2;

describe('trieOrder', () => {
  it('sorts entries by context rank, then word, carrying words and a field along', () => {
    const contexts = 50;
    const level = new NgramLevel(false, false, 16, 3);
    // Context 0 gets 40 successors, the others 0 to 8, inserted out of word order.
    for (let context = 0; context < contexts; context++) {
      const successors = context === 0 ? 40 : context % 9;
      for (let n = 0; n < successors; n++) {
        const id = level.add(context, (n * 17 + context) % 41);
        level.cells[id * level.stride + FIELD] = 1000 + id;
      }
    }
    // Context c is written at rank (c * 7) % contexts, a permutation.
    const rank = Int32Array.from({ length: contexts }, (_, c) => (c * 7) % contexts);
    const { ids, words, values, starts } = trieOrder(level, rank, contexts, FIELD);
    const expected = Array.from({ length: level.size }, (_, id) => id).sort(
      (a, b) => rank[level.contextOf(a)] - rank[level.contextOf(b)] || level.wordOf(a) - level.wordOf(b),
    );
    expect([...ids]).toEqual(expected);
    expected.forEach((id, i) => {
      expect(words[i]).toBe(level.wordOf(id));
      expect(values[i]).toBe(1000 + id);
      const r = rank[level.cells[id * level.stride + CONTEXT]];
      expect(starts[r] <= i && i < starts[r + 1]).toBe(true);
    });
    expect(starts[contexts]).toBe(level.size);
  });
});
