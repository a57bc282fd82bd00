import { describe, expect, it } from 'vitest';
import { createModel, detokenize, tokenize } from '../../lib/lm/index.js';
import { renderReply } from '../../lib/reply/render.js';

describe('tokenizer', () => {
  it('keeps apostrophes inside words and splits punctuation into tokens', () => {
    expect(tokenize("Don't touch the LORD's ark, O Uzzah!")).toEqual([
      "Don't",
      'touch',
      'the',
      "LORD's",
      'ark',
      ',',
      'O',
      'Uzzah',
      '!',
    ]);
  });

  it('treats Unicode letters and digits as word characters', () => {
    expect(tokenize('Ça coûte 12€ (naïve) — 三つ')).toEqual([
      'Ça',
      'coûte',
      '12',
      '€',
      '(',
      'naïve',
      ')',
      '—',
      '三つ',
    ]);
  });

  it('splits on whitespace only in pretokenized mode', () => {
    expect(tokenize("  the lord's , day  ", 'whitespace')).toEqual(['the', "lord's", ',', 'day']);
  });

  it('joins tokens with natural spacing', () => {
    expect(
      detokenize(['And', 'God', 'said', ',', 'Let', 'there', 'be', 'light', ':', 'and', 'it', 'was', '.']),
    ).toBe('And God said, Let there be light: and it was.');
    expect(detokenize(['He', 'said', '(', 'quietly', ')', 'that', 'well', '-', 'known', 'fact', '?'])).toBe(
      'He said (quietly) that well-known fact?',
    );
    expect(detokenize(['She', 'said', '"', 'go', '"', 'twice', '.'])).toBe('She said "go" twice.');
  });

  it('counts case-folded words but writes them back in their usual casing', () => {
    const model = createModel({ order: 3 });
    model.addText(
      'And I said unto the LORD, i pray thee.\nThe LORD is my shepherd; I shall not want.\nI am.',
    );
    expect(model.vocabulary.has('lord')).toBe(true);
    expect(model.vocabulary.has('LORD')).toBe(false);
    const ids = ['the', 'lord', 'is', 'my', 'shepherd', '.', 'i', 'said', 'and', 'i', 'am', '.'].map((word) =>
      model.vocabulary.id(word),
    );
    expect(renderReply(model, ids)).toBe('The LORD is my shepherd. I said and I am.');
  });
});
