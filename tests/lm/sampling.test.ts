import { describe, expect, it } from 'vitest';
import { BOS, type ContextState, createModel, TokenDistribution, UNK } from '../../lib/lm/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import { corpusLines } from './corpus.js';

const model = createModel({ order: 3 });
model.addText(corpusLines('kjv.raw.txt').slice(0, 400).join('\n'));
const predictor = model.forward;
const vocabulary = model.vocabulary.size;

/** The state after "<s> and the" (a busy context) and after "<s> in the" (fewer successors). */
function stateAfter(words: string[]): ContextState {
  const state = predictor.startState();
  for (const word of words) predictor.advance(state, model.vocabulary.id(word));
  return state;
}

/** p(w | state) for every word that can be generated, renormalised without <s> and <unk>. */
function exact(state: ContextState, temperature: number): Float64Array {
  const p = new Float64Array(vocabulary);
  let total = 0;
  for (let w = 0; w < vocabulary; w++) {
    if (w === UNK || w === BOS) continue;
    p[w] = predictor.probability(state, w) ** (1 / temperature);
    total += p[w];
  }
  return p.map((value) => value / total);
}

describe('next-token distributions and sampling', () => {
  it('holds the interpolated probability of every word sparsely', () => {
    const state = stateAfter(['and', 'the']);
    const distribution = new TokenDistribution();
    predictor.nextTokens(state, distribution);
    expect(distribution.size).toBeLessThan(vocabulary / 2);
    for (let w = 2; w < vocabulary; w++) {
      expect(distribution.probability(w)).toBeCloseTo(predictor.probability(state, w), 12);
    }
  });

  for (const temperature of [1, 0.6]) {
    it(`draws words with frequencies p^(1/T) renormalised (T = ${temperature})`, () => {
      const random = mulberry32(11);
      const scratch = new TokenDistribution();
      for (const context of [['and', 'the'], ['in', 'the'], []]) {
        const state = stateAfter(context);
        const expected = exact(state, temperature);
        const draws = 40_000;
        const seen = new Float64Array(vocabulary);
        for (let i = 0; i < draws; i++) seen[predictor.sample(state, temperature, random, scratch)]++;
        // Total variation distance between the empirical and the exact distribution.
        let distance = 0;
        for (let w = 0; w < vocabulary; w++) distance += Math.abs(seen[w] / draws - expected[w]);
        expect(distance / 2).toBeLessThan(0.05);
      }
    });
  }

  it('picks the most probable word at temperature 0', () => {
    const state = stateAfter(['and', 'the']);
    const expected = exact(state, 1);
    const best = expected.indexOf(Math.max(...expected));
    expect(predictor.sample(state, 0, mulberry32(1), new TokenDistribution())).toBe(best);
  });
});
