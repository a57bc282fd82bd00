import { describe, expect, it } from 'vitest';
import { weightOf } from '../../lib/pipeline/extract/trim.js';
import { distinctTermsOf, searchTerm } from '../../lib/retrieval/index.js';

/** The terms as weightOf worked them out before they were kept per text. */
function reference(text: string): string[] {
  const seen = new Set<string>();
  const terms: string[] = [];
  for (const word of text.split(/[^\p{L}\p{N}'’]+/u)) {
    const term = word ? searchTerm(word) : null;
    if (!term || seen.has(term)) continue;
    seen.add(term);
    terms.push(term);
  }
  return terms;
}

const TEXTS = [
  'And Solomon’s wisdom excelled the wisdom of all the children of the east country.',
  "The retries option sets how many times a failed request is tried again; it doesn't wait.",
  '',
  '--keep, --no-keep: keep (or remove) the files; keeps the last 3 versions.',
  `${'a very long line of minified code; '.repeat(60)}end`,
];

describe('distinctTermsOf', () => {
  it('gives the distinct search terms in the order they first occur, the same when asked again', () => {
    for (const text of TEXTS) {
      expect(distinctTermsOf(text)).toEqual(reference(text));
      expect(distinctTermsOf(text)).toEqual(reference(text));
      // A text built anew (another string object, same content) gets the same terms.
      expect(distinctTermsOf(text.split('').join(''))).toEqual(reference(text));
    }
  });

  it('weighs a sentence by the weights of its distinct terms', () => {
    const weights = new Map([
      [searchTerm('wisdom')!, 2.5],
      [searchTerm('country')!, 1],
      [searchTerm('retries')!, 4],
    ]);
    expect(weightOf(TEXTS[0], weights)).toBe(3.5);
    expect(weightOf(TEXTS[1], weights)).toBe(4);
    expect(weightOf(TEXTS[2], weights)).toBe(0);
  });
});
