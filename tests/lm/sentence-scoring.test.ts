import { describe, expect, it } from 'vitest';
import { createModel, EOS, evaluatePerplexity, tokenize, UNK, Vocabulary } from '../../lib/lm/index.js';
import { corpusLines, corpusText } from './corpus.js';

/** Σ log10 p token by token through `advance`, and the unknown words' part of it. */
function advancedSums(model: ReturnType<typeof createModel>, lines: readonly string[]): [number, number] {
  let all = 0;
  let unknown = 0;
  for (const line of lines) {
    const tokens = model.tokens(line);
    if (tokens.length === 0) continue;
    const state = model.forward.startState();
    for (const token of tokens) {
      const id = model.vocabulary.lookup(token);
      const logProb = model.forward.advance(state, id);
      all += logProb;
      if (id === UNK) unknown += logProb;
    }
    all += model.forward.advance(state, EOS);
  }
  return [all, unknown];
}

describe('whole-sentence scoring', () => {
  it('reads the ids Vocabulary.lookup gives for every whitespace token, Unicode spaces and markers included', () => {
    const vocabulary = new Vocabulary(['in', 'the', 'beginning', 'Ça', 'coûte', '三つ', 'God']);
    const text = '  in\tthe\u00a0beginning\u3000God <s> </s> <unk> Ça coûte 三つ unknown\u2028God\r\n in ';
    const words = { ids: new Int32Array(2), count: 0 };
    vocabulary.index().readWords(text, words);
    const expected = tokenize(text, 'whitespace').map((token) => vocabulary.lookup(token));
    expect(Array.from(words.ids.subarray(0, words.count))).toEqual(expected);
    expect(expected.filter((id) => id === UNK)).toHaveLength(4);
    vocabulary.intern('unknown');
    vocabulary.index().readWords('unknown', words);
    expect(words.ids[0]).toBe(vocabulary.lookup('unknown'));
    vocabulary.index().readWords(' \t ', words);
    expect(words.count).toBe(0);
  });

  it('reads the same ids from a line of UTF-8 bytes as from the line, and says where the next line starts', () => {
    const vocabulary = new Vocabulary(['in', 'the', 'beginning', 'Ça', 'coûte', '三つ', 'God', '😀']);
    const lines = [
      '  in\tthe\u00a0beginning\u3000God <s> </s> <unk> Ça coûte 三つ unknown\u2028God\r',
      '',
      '\ufeffGod\u1680😀\u2009in\u202fthe\u205fbeginning\u00a0',
      ' \t ',
      'Ça',
    ];
    const bytes = new TextEncoder().encode(lines.join('\n'));
    const index = vocabulary.index();
    const fromBytes = { ids: new Int32Array(2), count: 0 };
    const fromText = { ids: new Int32Array(2), count: 0 };
    let at = 0;
    for (const line of lines) {
      at = index.readLineBytes(bytes, at, fromBytes);
      index.readWords(line, fromText);
      expect(Array.from(fromBytes.ids.subarray(0, fromBytes.count))).toEqual(
        Array.from(fromText.ids.subarray(0, fromText.count)),
      );
    }
    expect(at).toBe(bytes.length);
  });

  it('scores the bytes of a file exactly as its lines', () => {
    const model = createModel({ order: 4, tokenizer: 'whitespace', directions: 'forward' });
    model.addText(corpusText('kjv.norm.contig.train').slice(0, 400_000));
    const test = corpusText('kjv.norm.contig.test').slice(0, 100_000);
    const fromBytes = evaluatePerplexity(model, new TextEncoder().encode(test));
    expect(fromBytes).toEqual(evaluatePerplexity(model, test.split(/\r?\n/)));
    expect(fromBytes.oov).toBeGreaterThan(0);
    const natural = createModel({ order: 3 });
    natural.addText('In the beginning God created the heaven and the earth.');
    const text = 'In the beginning God created the earth.\nAnd the earth was without form.';
    expect(evaluatePerplexity(natural, new TextEncoder().encode(text))).toEqual(
      evaluatePerplexity(natural, text.split('\n')),
    );
  });

  it('gives the sums advancing token by token gives, with and without n-grams waiting to be compacted', () => {
    const model = createModel({ order: 4, tokenizer: 'whitespace', directions: 'forward' });
    model.addText(corpusText('oracle/train.txt'));
    const test = corpusLines('oracle/test.txt');
    const check = () => {
      const [all, unknown] = advancedSums(model, test);
      const report = evaluatePerplexity(model, test);
      expect(report.log10Sum).toBeCloseTo(all, 8);
      expect(report.oov).toBeGreaterThan(0);
      const tokens = report.tokens;
      expect(report.perplexityExcludingOOV).toBeCloseTo(10 ** (-(all - unknown) / (tokens - report.oov)), 8);
    };
    expect(model.forwardCounts.pendingEntries).toBe(0);
    check();
    model.addText(test.slice(0, 20).join('\n'));
    expect(model.forwardCounts.pendingEntries).toBeGreaterThan(0);
    check();
  });

  it('scores natural-tokenizer models the same way', () => {
    const model = createModel({ order: 3, directions: 'forward' });
    model.addText('In the beginning God created the heaven and the earth.\nAnd the earth was without form.');
    const lines = ['And the earth was void.', 'In the beginning was the Word.', ''];
    const [all] = advancedSums(model, lines);
    const report = evaluatePerplexity(model, lines);
    expect(report.lines).toBe(2);
    expect(report.log10Sum).toBeCloseTo(all, 10);
  });
});
