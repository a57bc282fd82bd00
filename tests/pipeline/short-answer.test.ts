import { describe, expect, it } from 'vitest';
import { answerCandidates } from '../../lib/pipeline/extract/short-answer.js';
import { shapeOf } from '../../lib/pipeline/understand/shape.js';
import { termsOf } from '../../lib/retrieval/index.js';

/** The short answers a question finds in lines of evidence, best first. */
function candidates(question: string, lines: string[]): string[] {
  const evidence = lines.map((text) => ({ text, weight: 1, best: true }));
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

  it('takes the name a naming phrase or an apposition binds to the noun a which-question asks for', () => {
    // Invented lines, so no rule can key to a known text.
    expect(
      candidates('Which sailor in the harbour of Vell mended the nets?', [
        'In those days a sailor in the harbour of Vell, whose name was Orrin, mended the nets.',
      ])[0],
    ).toBe('Orrin');
    expect(
      candidates('Which clerk kept the ledger?', [
        'There was a clerk named Tamsin, and she kept the ledger.',
      ])[0],
    ).toBe('Tamsin');
    expect(candidates('Which miller ground the grain?', ['And Corvan the miller ground the grain.'])[0]).toBe(
      'Corvan',
    );
    expect(candidates('Which gate was opened at dawn?', ['At dawn they opened the gate Hallow.'])[0]).toBe(
      'Hallow',
    );
  });

  it('takes no name that a naming word only modifies ("a named Vell archive")', () => {
    expect(
      candidates('Which tool unpacks the files?', ['This tool unpacks the files of a named Vell archive.']),
    ).not.toContain('Vell');
    expect(
      candidates('Which tool unpacks the files?', ['A tool called Vell archives unpacks the files.']),
    ).not.toContain('Vell');
  });

  it('takes a name the text places in the restriction of "which X of Y" ("Hallow of Vell")', () => {
    expect(
      candidates('In which town of Vell was the bridge built?', [
        'The bridge was built in Hallow of Vell.',
      ])[0],
    ).toBe('Hallow');
    // A town "of" another place is another town.
    expect(
      candidates('In which town of Vell was the bridge built?', ['The bridge was built in Hallow of Orle.']),
    ).toEqual([]);
  });

  it('binds a name by a naming phrase only in the unit that answers and around it', () => {
    const question = 'Which miller saved the grain?';
    const found = answerCandidates(
      shapeOf(question),
      new Set(termsOf(question)),
      [
        { text: 'In the night the miller saved the grain of the valley.', weight: 1, best: true },
        { text: 'In another town there was a miller named Tamsin.', weight: 0.3, best: false },
      ],
      () => 1,
      () => true,
    );
    expect(found.map((candidate) => candidate.text)).not.toContain('Tamsin');
  });
});
