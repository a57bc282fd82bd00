import { describe, expect, it } from 'vitest';
import { createModel, type NgramModel, scoreLine } from '../../lib/lm/index.js';
import { corpusLines } from './corpus.js';

const lines = corpusLines('kjv.raw.txt').slice(0, 1500);
const probe = corpusLines('kjv.raw.txt').slice(20000, 20040);

function scores(model: NgramModel): number[] {
  return probe.flatMap((line) => scoreLine(model, line).logProbs);
}

describe('incremental training', () => {
  it('training in chunks gives the same counts and probabilities as training once', () => {
    const once = createModel({ order: 4 });
    once.addText(lines.join('\n'));
    const chunked = createModel({ order: 4 });
    for (let i = 0; i < lines.length; i += 97) chunked.addText(lines.slice(i, i + 97).join('\n'));
    expect(chunked.tokenCount).toBe(once.tokenCount);
    expect(chunked.vocabSize).toBe(once.vocabSize);
    expect(chunked.serialize()).toEqual(once.serialize());
    expect(scores(chunked)).toEqual(scores(once));
  });

  it('answers the same whether new n-grams are still waiting to be sorted in or already sorted', () => {
    const queried = createModel({ order: 4 });
    const quiet = createModel({ order: 4 });
    queried.addText(lines.slice(0, 1200).join('\n'));
    quiet.addText(lines.slice(0, 1200).join('\n'));
    for (let i = 1200; i < lines.length; i += 25) {
      const chunk = lines.slice(i, i + 25).join('\n');
      queried.addText(chunk);
      quiet.addText(chunk);
      // One model sorts its new n-grams in at once; the other keeps them in its pending hash.
      queried.forwardCounts.compact();
      queried.backwardCounts?.compact();
      expect(queried.forwardCounts.pendingEntries).toBe(0);
    }
    expect(quiet.forwardCounts.pendingEntries).toBeGreaterThan(0);
    expect(scores(quiet)).toEqual(scores(queried));
    const backwards = (model: NgramModel) => {
      const state = model.backward!.startState();
      return probe
        .slice(0, 5)
        .flatMap((line) =>
          model.tokens(line).map((word) => model.backward!.advance(state, model.vocabulary.lookup(word))),
        );
    };
    expect(backwards(quiet)).toEqual(backwards(queried));
    // Sampling weighs the successors of both kinds: the same tempered normalisers either way.
    const normalisers = (model: NgramModel) =>
      ['the', 'and', 'of'].map((word) => {
        const state = model.forward.startState();
        model.forward.advance(state, model.vocabulary.lookup(word));
        return model.forward.temperedTotal(state, 0.7);
      });
    const pending = normalisers(quiet);
    for (const [i, total] of normalisers(queried).entries()) expect(pending[i]).toBeCloseTo(total, 12);
    expect(quiet.serialize()).toEqual(queried.serialize());
  });

  it('reports the tokens learned and counts distinct words, markers excluded', () => {
    const model = createModel({ order: 3 });
    expect(model.vocabSize).toBe(0);
    expect(model.addText('In the beginning.\n\nthe end')).toEqual({ tokens: 6, lines: 2 });
    expect(model.vocabSize).toBe(5);
    expect(model.tokenCount).toBe(6);
    expect(model.vocabulary.size).toBe(8);
  });

  it('makes a line likelier once it has been learned', () => {
    const model = createModel({ order: 3 });
    model.addText(lines.slice(0, 300).join('\n'));
    const line = 'And the cat sat upon the mat of the LORD.';
    const total = () => scoreLine(model, line).logProbs.reduce((sum, logProb) => sum + logProb, 0);
    const before = total();
    model.addText(line);
    expect(total()).toBeGreaterThan(before + 1);
  });
});
