import { describe, expect, it } from 'vitest';
import { corporaDir } from '../../scripts/bench-chat.js';
import { runSet, type Tally, tally } from '../../scripts/bench-qa-core.js';
import { findSet, type Half, loadSets } from '../../scripts/bench-sets.js';

/**
 * Floors under the answer quality of `npm run bench:qa`, on the shared samples and on the held-out
 * halves of the vendored documentation sets (the SQLite HTML manual, the Bash PDF guide, the
 * Fastify Markdown folder, the Debian FAQ in text, Vim's user manual, four READMEs in one file; the 42 new KJV questions, a second KJV training, are left to the
 * benchmark). Each floor sits a little below the figure measured when it was set (in the comment
 * beside it), so that a change which loses answers fails here; wrong-but-cited has a ceiling
 * instead. Raise a floor when the figures rise. Nothing here is timed.
 */

interface Floor {
  set: string;
  half?: Half;
  /** Hits (an acceptable word in the first 60 words) of Variant A expert raw and B standard, at least. */
  aHit: number;
  bHit: number;
  /** Leads (in the first 15 words), at least. */
  aLead: number;
  bLead: number;
  /** Replies at level `answer` citing sources without an acceptable word, at most. */
  aWrongCited: number;
  bWrongCited: number;
  /** Honest "I don't know" to the off-corpus questions of the same half, at least (absent: not asked). */
  honest?: number;
}

// Ninth round (2026-11-26): the Git manual's and the new Python set's held-out halves have floors too.
// Eighth round (2026-11-26, the rarest word's penalty 0.2): held out SQLite honest 10/10 (floor 9),
// Bash wrong but cited 2 (ceiling 4); every other figure as below.
// Seventh round (2026-11-26, after never-taught verbs, stance adverbs, the comma before code and
// the short paragraph with the next): the figures in the comment beside each entry; each floor is
// one below (a lead of 2 or less: one below, at least 1), each ceiling two above. Sixth round:
// samples READMEs 7/5, wrong 2; held out SQLite wrong 7; Bash B 8/4; READMEs 9/9.
// Fifth round, at its end (47a0c0b): held out A hit / lead, wrong, honest: SQLite 6/2, 8, 9/10; Bash 7/4, 4, 9/10;
// Fastify 7/5 (B 9/5), 8 (B 6), 9/10; Debian 10/7, 1, 10/10; Vim 7/2, 8, 10/10; READMEs 8/8, 3,
// 10/10; samples READMEs 7/5 wrong 2, manual pages 4/3 wrong 4, KJV 13/9 wrong 0. Second round
// (2026-11-25, 5a7f9f4): SQLite 6/3, 9; Bash 7/3, 7; Fastify 7/5 (B 9/5), 9 (B 7); Debian 11/7, 3;
// Vim 7/2, 8; READMEs 9/9, 4. First round (main cc8b0f0): held out SQLite 5/3 (wrong 13), Bash
// 9/5 (wrong 9), Fastify 10/6 and 11/6 (wrong 9, 8).
const FLOORS: Floor[] = [
  // 8 / 6 and 8 / 6 of 12; wrong but cited 2, 2
  {
    set: 'docs sample: READMEs',
    aHit: 7,
    bHit: 7,
    aLead: 5,
    bLead: 5,
    aWrongCited: 4,
    bWrongCited: 4,
  },
  // 4 / 3 and 4 / 3 of 12; wrong but cited 4, 4
  {
    set: 'docs sample: manual pages',
    aHit: 3,
    bHit: 3,
    aLead: 2,
    bLead: 2,
    aWrongCited: 6,
    bWrongCited: 6,
  },
  // 14 / 10 and 14 / 10 of 15; wrong but cited 0, 0
  {
    set: 'KJV (a verse a line)',
    aHit: 13,
    bHit: 13,
    aLead: 9,
    bLead: 9,
    aWrongCited: 2,
    bWrongCited: 2,
  },
  // held out: 7 / 3 and 7 / 3 of 20; wrong but cited 6, 6; honest 10/10, 10/10
  {
    set: 'SQLite manual',
    half: 'heldout',
    aHit: 6,
    bHit: 6,
    aLead: 2,
    bLead: 2,
    aWrongCited: 8,
    bWrongCited: 8,
    honest: 9,
  },
  // held out: 8 / 4 and 9 / 4 of 20; wrong but cited 2, 2; honest 9/10, 9/10
  {
    set: 'Bash Reference Manual',
    half: 'heldout',
    aHit: 7,
    bHit: 8,
    aLead: 3,
    bLead: 3,
    aWrongCited: 4,
    bWrongCited: 4,
    honest: 8,
  },
  // held out: 8 / 5 and 10 / 5 of 20; wrong but cited 8, 6; honest 9/10, 9/10
  {
    set: 'Fastify docs folder',
    half: 'heldout',
    aHit: 7,
    bHit: 9,
    aLead: 4,
    bLead: 4,
    aWrongCited: 10,
    bWrongCited: 8,
    honest: 8,
  },
  // held out: 13 / 7 and 13 / 7 of 20; wrong but cited 1, 1; honest 10/10, 10/10
  {
    set: 'Debian FAQ',
    half: 'heldout',
    aHit: 12,
    bHit: 12,
    aLead: 6,
    bLead: 6,
    aWrongCited: 3,
    bWrongCited: 3,
    honest: 9,
  },
  // held out: 8 / 2 and 8 / 2 of 20; wrong but cited 8, 8; honest 10/10, 10/10
  {
    set: 'Vim user manual',
    half: 'heldout',
    aHit: 7,
    bHit: 7,
    aLead: 1,
    bLead: 1,
    aWrongCited: 10,
    bWrongCited: 10,
    honest: 9,
  },
  // held out: 11 / 10 and 11 / 10 of 20; wrong but cited 3, 3; honest 10/10, 10/10
  {
    set: 'Four npm READMEs in one Markdown file',
    half: 'heldout',
    aHit: 10,
    bHit: 10,
    aLead: 9,
    bLead: 9,
    aWrongCited: 5,
    bWrongCited: 5,
    honest: 9,
  },
  // held out: 7 / 5 and 8 / 5 of 20; wrong but cited 4, 4; honest 8/10, 8/10 (ninth round)
  {
    set: 'Git manual',
    half: 'heldout',
    aHit: 6,
    bHit: 7,
    aLead: 4,
    bLead: 4,
    aWrongCited: 6,
    bWrongCited: 6,
    honest: 7,
  },
  // held out: 7 / 4 and 7 / 4 of 10; wrong but cited 3, 3; honest 5/5, 5/5 (ninth round, 0aa22fc)
  {
    set: 'Python glossary and tutorial',
    half: 'heldout',
    aHit: 6,
    bHit: 6,
    aLead: 3,
    bLead: 3,
    aWrongCited: 4,
    bWrongCited: 4,
    honest: 4,
  },
  // A manual nobody here had tuned on, its twenty questions written before it was trained and all
  // held out: 18 / 13 and 18 / 13; nearest 5, 5; wrong but cited 1, 1 at 669df2a. At the round's
  // end (its 89 redirect pages skipped as the train client skips them, two acceptable words that
  // failed bench-qa-check taken out): 16 / 12 and 17 / 12; nearest 3, 3; wrong but cited 3, 2.
  {
    set: 'GNU diffutils manual',
    half: 'heldout',
    aHit: 14,
    bHit: 15,
    aLead: 10,
    bLead: 10,
    aWrongCited: 5,
    bWrongCited: 4,
  },
  // The same for fourteen pages of the Node.js API reference (Markdown): 11 / 8 and 12 / 8;
  // nearest 7, 7; wrong but cited 2, 2 (seventeenth round, 240b035).
  {
    set: 'Node.js API docs',
    half: 'heldout',
    aHit: 9,
    bHit: 10,
    aLead: 6,
    bLead: 6,
    aWrongCited: 4,
    bWrongCited: 4,
  },
  // The same for the flex manual (PDF): 11 / 8 and 11 / 8; nearest 3, 3; wrong but cited 8, 8
  // (seventeenth round, with the contents pages and numbered running heads left out).
  {
    set: 'flex manual',
    half: 'heldout',
    aHit: 9,
    bHit: 9,
    aLead: 6,
    bLead: 6,
    aWrongCited: 10,
    bWrongCited: 10,
  },
  // The zsh manual (PDF, 480 pages, 1.4 MB of text, trained in parts as npm run train sends it):
  // 11 / 5 and 11 / 5; nearest 3, 3; wrong but cited 6, 6 (seventeenth round).
  {
    set: 'Z shell manual',
    half: 'heldout',
    aHit: 9,
    bHit: 9,
    aLead: 3,
    bLead: 3,
    aWrongCited: 8,
    bWrongCited: 8,
  },
];

const corpora = corporaDir(process.env.CORPORA_DIR);
const sets = loadSets();

describe('answer quality floors (bench:qa)', () => {
  for (const floor of FLOORS) {
    it(`${floor.set}${floor.half ? `, ${floor.half} half` : ''}`, { timeout: 300_000 }, async () => {
      const { result } = await runSet(findSet(sets, floor.set), {
        corpora,
        ...(floor.half ? { half: floor.half } : {}),
        skipOffCorpus: floor.honest === undefined,
      });
      const t: Tally = tally(result, floor.half);
      // A held-out half's questions stay out of the message: it is reported, never read for tuning.
      const misses =
        floor.half === 'heldout'
          ? 'held out: run npm run bench:qa -- --show-heldout to read them'
          : result.questions
              .filter((question) => !question.a.hit || !question.b.hit)
              .map((question) => question.q);
      const figures = { ...t, misses };
      expect(t.asked, 'questions asked').toBeGreaterThan(0);
      expect(t.aHit, `A hits ${JSON.stringify(figures)}`).toBeGreaterThanOrEqual(floor.aHit);
      expect(t.bHit, 'B hits').toBeGreaterThanOrEqual(floor.bHit);
      expect(t.aLead, 'A leads').toBeGreaterThanOrEqual(floor.aLead);
      expect(t.bLead, 'B leads').toBeGreaterThanOrEqual(floor.bLead);
      expect(t.aWrongCited, 'A wrong but cited').toBeLessThanOrEqual(floor.aWrongCited);
      expect(t.bWrongCited, 'B wrong but cited').toBeLessThanOrEqual(floor.bWrongCited);
      if (floor.honest !== undefined) {
        expect(t.aHonest, 'A honest off corpus').toBeGreaterThanOrEqual(floor.honest);
        expect(t.bHonest, 'B honest off corpus').toBeGreaterThanOrEqual(floor.honest);
      }
    });
  }
});
