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
