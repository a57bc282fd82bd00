import { describe, expect, it } from 'vitest';
import { createModel, evaluatePerplexity, scoreLine } from '../../lib/lm/index.js';
import { corpusLines, corpusText } from './corpus.js';

/** KenLM's `query -v word` output: per line, [word, log10 prob] including the final </s>. */
function kenlmQuery(order: number): [string, number][][] {
  return corpusLines(`oracle/kenlm-query.o${order}.txt`).map((line) =>
    line.split('\t').map((entry) => {
      const [word, , logProb] = entry.split(' ');
      return [word.slice(0, word.lastIndexOf('=')), Number(logProb)];
    }),
  );
}

const SUMMARY = {
  3: { perplexity: 244.97, excludingOOV: 147.19 },
  4: { perplexity: 235.72, excludingOOV: 141.95 },
} as const;

describe('interpolated modified Kneser-Ney against KenLM lmplz', () => {
  for (const order of [3, 4] as const) {
    describe(`order ${order}`, () => {
      const model = createModel({ order, tokenizer: 'whitespace', directions: 'forward' });
      model.addText(corpusText('oracle/train.txt'));
      const test = corpusLines('oracle/test.txt');

      it('gives every test token the log10 probability KenLM gives it, within 1e-4', () => {
        const expected = kenlmQuery(order);
        expect(expected).toHaveLength(test.length);
        let compared = 0;
        let worst = 0;
        test.forEach((line, i) => {
          const score = scoreLine(model, line);
          expect(score.tokens).toEqual(expected[i].map(([word]) => word));
          score.logProbs.forEach((logProb, j) => {
            worst = Math.max(worst, Math.abs(logProb - expected[i][j][1]));
            compared++;
          });
        });
        expect(compared).toBe(7981);
        expect(worst).toBeLessThan(1e-4);
      });

      it("matches KenLM's perplexity summary (7,981 tokens, 639 OOV)", () => {
        const report = evaluatePerplexity(model, test);
        expect(report.tokens).toBe(7981);
        expect(report.oov).toBe(639);
        expect(report.perplexity).toBeCloseTo(SUMMARY[order].perplexity, 2);
        expect(report.perplexityExcludingOOV).toBeCloseTo(SUMMARY[order].excludingOOV, 2);
      });

      it('has as many n-grams of each order as the ARPA file lmplz wrote', () => {
        const header = corpusText(`oracle/kjv3000.o${order}.arpa`).match(/ngram \d+=\d+/g) ?? [];
        const sizes = header.map((line) => Number(line.split('=')[1]));
        const counts = model.forwardCounts;
        expect(sizes).toEqual(Array.from({ length: order }, (_, k) => counts.entries(k + 1)));
      });
    });
  }

  it("reproduces KenLM's reference perplexities on the whole KJV split (orders 3 and 4)", () => {
    const train = corpusText('kjv.norm.contig.train');
    const test = corpusLines('kjv.norm.contig.test');
    for (const [order, perplexity, excludingOOV] of [
      [3, 130.68, 112.37],
      [4, 126.87, 109.12],
    ]) {
      const model = createModel({ order, tokenizer: 'whitespace', directions: 'forward' });
      model.addText(train);
      const report = evaluatePerplexity(model, test);
      expect(report.tokens).toBe(85160);
      expect(report.oov).toBe(1421);
      expect(model.vocabulary.size).toBe(12032);
      expect(report.perplexity).toBeCloseTo(perplexity, 2);
      expect(report.perplexityExcludingOOV).toBeCloseTo(excludingOOV, 2);
    }
  });
});
