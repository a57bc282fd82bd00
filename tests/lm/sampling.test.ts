import { describe, expect, it } from 'vitest';
import {
  BOS,
  type ContextState,
  createModel,
  loadArpa,
  TokenDistribution,
  type TokenPredictor,
  UNK,
} from '../../lib/lm/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import { corpusLines } from './corpus.js';

const model = createModel({ order: 3 });
model.addText(corpusLines('kjv.raw.txt').slice(0, 400).join('\n'));
const predictor = model.forward;
const vocabulary = model.vocabulary.size;
const arpa = loadArpa(model.toArpa()).forward;

/** The state after `words` from the sentence start. */
function stateAfter(words: string[], on: TokenPredictor = predictor): ContextState {
  const state = on.startState();
  for (const word of words) on.advance(state, model.vocabulary.id(word));
  return state;
}

/** p(w | state)^(1/T) for every word that can be generated (not <s>, not <unk>), by brute force. */
function tempered(on: TokenPredictor, state: ContextState, temperature: number): Float64Array {
  const weights = new Float64Array(vocabulary);
  for (let w = 0; w < vocabulary; w++) {
    if (w === UNK || w === BOS) continue;
    const probe = { ids: state.ids.slice(), length: state.length };
    weights[w] = (10 ** on.advance(probe, w)) ** (1 / temperature);
  }
  return weights;
}

function normalised(weights: Float64Array): Float64Array {
  const total = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w) => w / total);
}

const CONTEXTS = [['and', 'the'], ['in', 'the'], ['the'], ['lord', 'god'], []];

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

  for (const [name, on] of [
    ['Kneser-Ney counts', predictor],
    ['an ARPA file', arpa],
  ] as const) {
    it(`builds the tempered normaliser of every context exactly, without weighing the vocabulary (${name})`, () => {
      for (const context of CONTEXTS) {
        const state = stateAfter(context, on);
        for (const temperature of [1, 0.7, 0.4]) {
          const expected = tempered(on, state, temperature).reduce((sum, w) => sum + w, 0);
          expect(Math.abs(on.temperedTotal(state, temperature) / expected - 1)).toBeLessThan(1e-9);
        }
      }
    });
  }

  for (const temperature of [1, 0.7, 0.4]) {
    it(`draws words with frequencies p^(1/T) renormalised (T = ${temperature})`, () => {
      const random = mulberry32(11);
      const scratch = new TokenDistribution();
      for (const context of CONTEXTS) {
        const state = stateAfter(context);
        const expected = normalised(tempered(predictor, state, temperature));
        const draws = 40_000;
        const seen = new Float64Array(vocabulary);
        for (let i = 0; i < draws; i++) seen[predictor.sample(state, temperature, random, scratch)]++;
        expect(seen[UNK] + seen[BOS]).toBe(0);
        // Total variation distance between the empirical and the exact distribution.
        let distance = 0;
        for (let w = 0; w < vocabulary; w++) distance += Math.abs(seen[w] / draws - expected[w]);
        expect(distance / 2).toBeLessThan(0.05);
        // Every word's frequency within 5 standard errors of its probability.
        for (let w = 0; w < vocabulary; w++) {
          const p = expected[w];
          expect(Math.abs(seen[w] / draws - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / draws) + 2e-4);
        }
      }
    });
  }

  it('samples an ARPA model with the same frequencies as the counts it was written from (T = 0.7)', () => {
    const random = mulberry32(5);
    const scratch = new TokenDistribution();
    const state = stateAfter(['and', 'the'], arpa);
    const expected = normalised(tempered(predictor, stateAfter(['and', 'the']), 0.7));
    const draws = 40_000;
    const seen = new Float64Array(vocabulary);
    for (let i = 0; i < draws; i++) seen[arpa.sample(state, 0.7, random, scratch)]++;
    let distance = 0;
    for (let w = 0; w < vocabulary; w++) distance += Math.abs(seen[w] / draws - expected[w]);
    expect(distance / 2).toBeLessThan(0.05);
  });

  it('picks the most probable word at temperature 0', () => {
    for (const context of CONTEXTS) {
      const state = stateAfter(context);
      const expected = tempered(predictor, state, 1);
      const best = expected.indexOf(Math.max(...expected));
      expect(predictor.sample(state, 0, mulberry32(1), new TokenDistribution())).toBe(best);
    }
  });
});
