import { describe, expect, it } from 'vitest';
import { NgramLevel } from '../../lib/lm/ngram-level';

describe('NgramLevel', () => {
  it('finds every key added and no other, through growth and a bulk load', () => {
    const level = new NgramLevel(false, false);
    const keys: [number, number][] = [];
    for (let context = 0; context < 300; context++) {
      for (let word = 0; word < 1 + (context % 37); word++) keys.push([context, word * 7 + context]);
    }
    keys.forEach(([context, word], id) => {
      expect(level.add(context, word)).toBe(id);
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
