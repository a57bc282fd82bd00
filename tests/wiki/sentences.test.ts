import { describe, expect, it } from 'vitest';
import { relevantSentences, splitSentences } from '../../lib/wiki/index.js';
import { standinArticles } from '../support/wikipedia-standin.js';

const turing = standinArticles.find((article) => article.title === 'Alan Turing')!.extract;

describe('splitSentences', () => {
  it('splits at full stops, question and exclamation marks followed by a new sentence', () => {
    expect(
      splitSentences('It rains. Does it? Yes!  "Quite so," he said. (Really.) 1912 was a year.'),
    ).toEqual(['It rains.', 'Does it?', 'Yes!', '"Quite so," he said.', '(Really.)', '1912 was a year.']);
  });

  it('does not split at dotted abbreviations, initials, titles or decimals', () => {
    expect(
      splitSentences(
        'The U.S. Army was founded in 1775. Alan M. Turing met Dr. Newman, e.g. In Cambridge. Pi is 3.14 or so. St. Ives is a town.',
      ),
    ).toEqual([
      'The U.S. Army was founded in 1775.',
      'Alan M. Turing met Dr. Newman, e.g. In Cambridge.',
      'Pi is 3.14 or so.',
      'St. Ives is a town.',
    ]);
  });

  it('does not split before a lower-case word', () => {
    expect(splitSentences('Apple Inc. is a company. It makes phones.')).toEqual([
      'Apple Inc. is a company.',
      'It makes phones.',
    ]);
  });

  it('ends a sentence at a line break', () => {
    expect(splitSentences('First paragraph without a stop\nSecond one.')).toEqual([
      'First paragraph without a stop',
      'Second one.',
    ]);
  });

  it('splits a real extract into its sentences', () => {
    const sentences = splitSentences(turing);
    expect(sentences).toHaveLength(7);
    expect(sentences[4]).toContain('Princeton University in the U.S. state of New Jersey.');
  });
});

describe('relevantSentences', () => {
  it('ranks sentences by the content words they share with the question, in original order', () => {
    const picked = relevantSentences(turing, 'Where did Alan Turing work during the war?');
    expect(picked).toHaveLength(3);
    expect(picked[0]).toMatch(/^Alan Mathison Turing/);
    expect(picked[2]).toMatch(/^During World War II, Turing worked for the Government Code/);
  });

  it('favours the first sentence, which defines the subject', () => {
    const picked = relevantSentences(turing, 'Tell me about Enigma', 2);
    expect(picked).toEqual([
      expect.stringMatching(/^Alan Mathison Turing/),
      expect.stringMatching(/^He led Hut 8/),
    ]);
  });

  it('leaves out sentences that share nothing with the question', () => {
    const picked = relevantSentences(turing, 'Which college did he graduate from?', 3);
    expect(picked).toEqual([
      expect.stringMatching(/^Alan Mathison Turing/),
      expect.stringMatching(/^He graduated from King’s College/),
    ]);
  });

  it('returns the opening sentences when the question has no content words', () => {
    expect(relevantSentences(turing, 'who is it?', 2)).toEqual(splitSentences(turing).slice(0, 2));
  });

  it('returns at most max sentences, and nothing for an empty extract', () => {
    expect(relevantSentences(turing, 'Turing', 1)).toHaveLength(1);
    expect(relevantSentences('', 'Turing')).toEqual([]);
  });
});
