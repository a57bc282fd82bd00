import { describe, expect, it } from 'vitest';
import { ArpaFormatError, createModel, evaluatePerplexity, loadArpa, scoreLine } from '../../lib/lm/index.js';
import { generateReply, mulberry32 } from '../../lib/reply/index.js';
import { corpusLines, corpusText } from './corpus.js';

describe('ARPA export and loading', () => {
  const model = createModel({ order: 4, tokenizer: 'whitespace', directions: 'forward' });
  model.addText(corpusText('oracle/train.txt'));
  const arpa = model.toArpa();
  const test = corpusLines('oracle/test.txt');

  it('writes the n-grams of the file lmplz wrote, in its order, with the same numbers to ~7 digits', () => {
    const ours = arpa.split('\n');
    const theirs = corpusText('oracle/kjv3000.o4.arpa').split('\n');
    expect(ours).toHaveLength(theirs.length);
    let worst = 0;
    ours.forEach((line, i) => {
      const a = line.split('\t');
      const b = theirs[i].split('\t');
      expect(a[1]).toBe(b[1]);
      if (a.length > 1)
        for (const j of [0, 2])
          if (a[j] !== undefined) worst = Math.max(worst, Math.abs(Number(a[j]) - Number(b[j])));
    });
    expect(worst).toBeLessThan(1e-6);
  });

  it('loads its own export back with the same probabilities', () => {
    const loaded = loadArpa(arpa, { tokenizer: 'whitespace' });
    expect(loaded.vocabSize).toBe(model.vocabSize);
    for (const line of test.slice(0, 100)) {
      const expected = scoreLine(model, line).logProbs;
      scoreLine(loaded, line).logProbs.forEach((logProb, i) => {
        expect(logProb).toBeCloseTo(expected[i], 5);
      });
    }
    expect(loadArpa(loaded.toArpa(), { tokenizer: 'whitespace' }).toArpa()).toBe(loaded.toArpa());
  });

  it("serves KenLM's own ARPA file with KenLM's query results", () => {
    const loaded = loadArpa(corpusText('oracle/kjv3000.o3.arpa'), { tokenizer: 'whitespace' });
    const report = evaluatePerplexity(loaded, test);
    expect(report.tokens).toBe(7981);
    expect(report.perplexity).toBeCloseTo(244.97, 2);
    expect(report.perplexityExcludingOOV).toBeCloseTo(147.19, 2);
  });

  it('generates replies from a loaded ARPA model, growing forwards only', () => {
    const loaded = loadArpa(arpa, { tokenizer: 'whitespace' });
    const reply = generateReply(loaded, {
      message: 'tell me about the ark of noah',
      budget: { candidates: 20, timeMs: 5000 },
      random: mulberry32(7),
    });
    expect(reply.text.length).toBeGreaterThan(0);
    expect(reply.keywords).toContain('noah');
    expect(reply.candidates).toBe(20);
  });

  it('explains what is wrong with a malformed file', () => {
    expect(() => loadArpa('hello')).toThrow(ArpaFormatError);
    expect(() => loadArpa('\\data\\\nngram 1=1\nngram 2=1\n\n\\2-grams:\n-1\ta b\n\\end\\\n')).toThrow(
      /context/,
    );
  });
});
