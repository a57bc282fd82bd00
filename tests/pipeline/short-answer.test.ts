import { describe, expect, it } from 'vitest';
import { answerCandidates } from '../../lib/pipeline/extract/short-answer.js';
import { shapeOf } from '../../lib/pipeline/understand/shape.js';
import { termsOf } from '../../lib/retrieval/index.js';

/** The short answers a question finds in lines of evidence, best first. */
function candidates(question: string, lines: string[]): string[] {
  const evidence = lines.map((text) => ({ text, weight: 1 }));
  return answerCandidates(
    shapeOf(question),
    new Set(termsOf(question)),
    evidence,
    () => 1,
    () => true,
  ).map((candidate) => candidate.text);
}

describe('short answers', () => {
  it('takes a quantity for a how-long question, never an issue number, a path or a version name', () => {
    const found = candidates('How long is an idle connection kept open?', [
      'An idle connection is kept open for 72 seconds; see #3925 and /v2/limits for the discussion.',
      'Connections speak UTF-8.',
    ]);
    expect(found[0]).toBe('72 seconds');
    expect(found.join(' ')).not.toMatch(/3925|\b2\b|\b8\b/);
  });
});
