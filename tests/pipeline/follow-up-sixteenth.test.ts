import { describe, expect, it } from 'vitest';
import type { ReadingSearch } from '../../lib/pipeline/gather.js';
import { judge } from '../../lib/pipeline/judge.js';
import type { Evidence } from '../../lib/pipeline/rank.js';
import { NEAREST_COVERAGE, PRIOR_SECTION_BONUS } from '../../lib/pipeline/tuning.js';

/**
 * The judge alone, on evidence built here: "Does it go into untracked folders too?" after a
 * question about a cleaning command. As written, the message finds a unit about a mail folder
 * (off the earlier topic); resolved, the unit of the earlier answer's section that says
 * "directories" for "folders", covering too little by its words alone.
 */
describe('a follow-up whose own words find only units off the earlier topic', () => {
  const search = (resolved: boolean) =>
    ({
      reading: {
        question: 'Does it go into untracked folders too?',
        resolved,
        carried: resolved ? 'How do I see which files the clean command would delete?' : '',
        said: [],
        shape: { kind: 'thing', focus: null, wants: 'fact' },
      },
      counted: resolved ? 6 : 3,
      own: 3,
      unknownWords: [],
      unknownName: false,
      unknownSubject: false,
      topical: resolved ? [3, 4, 5] : [],
    }) as unknown as ReadingSearch;
  const unit = (reading: number, id: number, coverage: number, matched: number[], prior: number) =>
    ({
      reading,
      hit: { id, matched, matchedNearby: [] },
      coverage,
      covered: coverage * 6,
      hasRarest: reading === 0,
      rank: coverage + prior,
      features: { prior },
    }) as unknown as Evidence;
  const mailFolder = unit(0, 9, 0.9, [1, 2], 0);

  it("gives the unit of the earlier answer's section as the closest passage", () => {
    const directories = unit(1, 4, NEAREST_COVERAGE - 0.1, [1, 4], PRIOR_SECTION_BONUS);
    const judged = judge([search(false), search(true)], [mailFolder, directories]);
    expect(judged.best?.hit.id).toBe(4);
    expect(judged.confidence.level).toBe('nearest');
  });

  it('keeps the off-topic unit, hedged, where the resolved unit is outside that section', () => {
    const elsewhere = unit(1, 5, NEAREST_COVERAGE - 0.1, [1, 4], 0);
    const judged = judge([search(false), search(true)], [mailFolder, elsewhere]);
    expect(judged.best?.hit.id).toBe(9);
    expect(judged.confidence.level).toBe('nearest');
  });
});

/**
 * The judge alone, on evidence built here: four question words of equal weight, and units whose
 * coverage, worked out again without one word, says whether that word alone put the best unit
 * first.
 */
describe('an answer whose lead rests on one word of the question or another', () => {
  const search = {
    reading: {
      question: 'q',
      resolved: false,
      carried: '',
      said: [],
      shape: { kind: 'thing', focus: null, wants: 'fact' },
    },
    query: ['alpha', 'beta', 'gamma', 'delta'].map((word) => ({ term: word, word, weight: 1, name: false })),
    idf: [1, 1, 1, 1],
    counted: 4,
    own: 4,
    ownWeight: 4,
    unknownWords: [],
    unknownName: false,
    unknownSubject: false,
    topical: [],
  } as unknown as ReadingSearch;
  // Rank: the unit's coverage plus the rest of its evidence (`rest`).
  const unit = (id: number, matched: number[], rest: number) =>
    ({
      reading: 0,
      hit: { id, matched, matchedNearby: [] },
      coverage: matched.length / 4,
      covered: matched.length,
      hasRarest: true,
      rank: matched.length / 4 + rest,
    }) as unknown as Evidence;

  it('is given as the closest passage', () => {
    // Without "alpha" the unit holding beta, gamma and delta leads; without "beta", the one
    // holding alpha, gamma and delta.
    const ranked = [unit(1, [0, 1, 2], 0.4), unit(2, [1, 2, 3], 0.3), unit(3, [0, 2, 3], 0.3)];
    const judged = judge([search], ranked);
    expect(judged.best?.hit.id).toBe(1);
    expect(judged.confidence.level).toBe('nearest');
    expect(judged.reason).toMatch(/one word of the question or another/);
  });

  it('stays the answer where only one word tips the balance', () => {
    const ranked = [unit(1, [0, 1, 2], 0.4), unit(2, [1, 2, 3], 0.3), unit(3, [1, 2], 0.3)];
    expect(judge([search], ranked).confidence.level).toBe('answer');
  });
});
