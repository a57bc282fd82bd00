import { describe, expect, it } from 'vitest';
import { KEY_WIDTH, NgramLevel } from '../../lib/lm/querying/ngram-level.js';

describe('NgramLevel', () => {
  it('finds every key added and no other, through growth and a bulk load', () => {
    const level = new NgramLevel(false, false, 16, 2);
    const keys: [number, number][] = [];
    for (let context = 0; context < 300; context++) {
      for (let word = 0; word < 1 + (context % 37); word++) keys.push([context, word * 7 + context]);
    }
    keys.forEach(([context, word], id) => {
      expect(level.add(context, word)).toBe(id);
      level.cells[id * level.stride + KEY_WIDTH + 1] = id * 3;
    });
    // The fields after the key survive the growth of the cells.
    keys.forEach(([context, word], id) => {
      expect([level.contextOf(id), level.wordOf(id)]).toEqual([context, word]);
      expect(level.cells[id * level.stride + KEY_WIDTH + 1]).toBe(id * 3);
    });
    const check = (found: NgramLevel) => {
      keys.forEach(([context, word], id) => {
        expect(found.find(context, word)).toBe(id);
      });
      for (let context = 0; context < 300; context++) {
        expect(found.find(context, -1)).toBe(-1);
        expect(found.find(context + 300, 7)).toBe(-1);
        expect(found.find(context, 37 * 7 + context)).toBe(-1);
      }
    };
    check(level);
    const loaded = new NgramLevel(false, true);
    loaded.load(
      keys.length,
      Int32Array.from(keys, ([context]) => context),
      Int32Array.from(keys, ([, word]) => word),
    );
    check(loaded);
  });
});
