import { describe, expect, it } from 'vitest';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import { askPipeline, historyOf, pipelineSession } from '../support/pipeline.js';

/** A small version-control tool: sweeping untracked files, sending branches, both with a --force. */
const TOOL = `# twig

## Sweeping untracked files

To see which untracked files twig sweep would delete, run twig sweep --dry-run.

- --force: twig sweep refuses to delete untracked files unless given --force. The safety check is on by default; set sweep.requireForce to false to turn it off.

## Sending a branch

To send a branch to the server, run twig send with the branch name.

- --force: twig send refuses to replace a branch on the server that is not an ancestor of yours. This flag disables the check.
`;

describe('a relative "that" is no demonstrative', () => {
  it('leaves "the check that needs --force" alone: "that" stands for the noun before it', () => {
    const history = historyOf('How do I send a branch to the server?');
    expect(resolveFollowUp('Is the check that needs --force on by default?', history).kind).toBe('none');
    expect(resolveFollowUp('Can browsers that only speak HTTP/1 connect?', history).kind).toBe('none');
  });

  it('still reads a demonstrative "that" as pointing back', () => {
    const history = historyOf('How do I send a branch to the server?');
    expect(resolveFollowUp('Is that on by default?', history).kind).toBe('pronoun');
    expect(resolveFollowUp('Does the server handle that case?', history).kind).toBe('pronoun');
    expect(resolveFollowUp('Does the server do that?', history).kind).toBe('pronoun');
  });

  it('answers such a question after a conversation as it is answered fresh', async () => {
    const chat = await pipelineSession('twig.md', TOOL);
    expect(chat.ask('How do I send a branch to the server?').text).toMatch(/twig send/);
    const next = chat.ask('Is the check that needs --force on by default?');
    const fresh = askPipeline(chat.knowledge, 'Is the check that needs --force on by default?');
    expect(next.readAs).toBeUndefined();
    expect(next.text).toBe(fresh.text);
    expect(next.text).toMatch(/on by default/);
  });
});

/**
 * A tool whose manual says "files" almost everywhere (a word that cannot tell what a question is
 * about) and "sweep" or "untracked" in two of its 26 units.
 */
const SWEEP = `# twig

## Sweeping

twig sweep deletes untracked files from the working tree.

- -d: twig sweep also recurses into untracked directories.

## Mail

- mail.folder: the folder to drop mails into, for files sent as patches.

## Staging

twig add stages files for the next commit.

## History

twig log lists the files each commit changed.

## Comparing

twig diff compares files in the working tree with the index.

## Ignoring

twig ignore keeps files out of the index.

${Array.from({ length: 20 }, (_, n) => `## Hook ${n + 1}\n\nHook number ${n + 1} runs a script of its own on the files of a commit.\n`).join('\n')}`;

describe('the earlier topic, told by its rarer words', () => {
  it('does not state a unit as the answer for holding only a carried word found everywhere', async () => {
    const chat = await pipelineSession('twig.md', SWEEP);
    expect(chat.ask('How do I delete untracked files with twig sweep?').text).toMatch(/twig sweep deletes/);
    const next = chat.ask('Does it go into folders too?');
    expect(next.confidence.level).not.toBe('answer');
  });
});

/** A package tool: holding a package, and a passage that says "later" about something else. */
const HOLD = `# pkgtool

## Holding a package

To keep a package from being upgraded, run pkgtool hold with its name.

## Building a package

Build a local version first, so that you won't get confused later when a new release comes out.
`;

describe('an adverb that links a follow-up to the turn before', () => {
  it('is not searched in the reading as written either', async () => {
    const chat = await pipelineSession('pkgtool.md', HOLD);
    expect(chat.ask('How do I keep a package from being upgraded?').text).toMatch(/pkgtool hold/);
    const next = chat.ask('How do I undo that later?');
    expect(next.thought).not.toMatch(/searched: [^·]*\blater\b/);
    expect(next.text).not.toMatch(/confused later/);
  });
});

/** History and blame of a small version-control tool. */
const HISTORY = `# twig

## Following renames

To see a file's history across renames, run twig log --follow with the file name.

## Blame

To see who last changed each line of a file, run twig blame with the file name.
`;

describe('"what about <gerund> …?" whose complement is an embedded question', () => {
  it('is a new action on the earlier frame, not a question of its own', () => {
    const read = resolveFollowUp(
      'What about seeing who last changed each line?',
      historyOf("How do I see a file's history even across renames?"),
    );
    expect(read.kind).toBe('ellipsis');
    expect(read.question).toBe('How do I see who last changed each line?');
  });

  it('answers it through the pipeline with what the gerund asks', async () => {
    const chat = await pipelineSession('twig.md', HISTORY);
    expect(chat.ask("How do I see a file's history across renames?").text).toMatch(/--follow/);
    const next = chat.ask('What about seeing who last changed each line?');
    expect(next.readAs).toMatch(/^How do I see who last changed each line\?/);
    expect(next.text).toMatch(/twig blame/);
  });
});
