import { describe, expect, it } from 'vitest';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import type { Turn } from '../../lib/sessions/index.js';
import { historyOf, pipelineSession } from '../support/pipeline.js';

/** Branches of a small version-control tool: renaming, deleting, deleting by force. */
const BRANCHES = `# twig

## Branches

### Renaming a branch

To rename a local branch, run twig move with the old name and the new name.

Renaming a local branch that was merged before keeps its upstream and its reflog entries.

### Deleting a branch

To delete a local branch, run twig drop with its name.

Options of twig drop:

- --force: delete a local branch that is not merged yet.
- --quiet: print nothing.
`;

describe('"what if …?" after a question that leaned back', () => {
  it('carries the question asked last whole, its verb too: the condition is put on that action', () => {
    const read = resolveFollowUp(
      "What if it isn't merged yet?",
      historyOf('How do I rename a local branch?', 'And how do I delete one?'),
    );
    expect(read.kind).toBe('pronoun');
    expect(read.carried).toMatch(/\bdelete\b/);
    // Without the condition, "it" stands for the thing, and the verbs of the turn between are not carried.
    expect(
      resolveFollowUp(
        'What happens when it runs out of room?',
        historyOf('What does the sequence keyword do?', 'Why should I avoid it?'),
      ).carried,
    ).not.toMatch(/\bavoid\b/);
  });

  it('answers from the unit about the action asked last under that condition', async () => {
    const { ask: chat } = await pipelineSession('twig.md', BRANCHES);
    expect(chat('How do I rename a local branch?').text).toMatch(/twig move/);
    expect(chat('And how do I delete one?').text).toMatch(/twig drop/);
    const reply = chat("What if it isn't merged yet?");
    expect(reply.readAs).toBeDefined();
    // With only the first question's words carried, the unit about renaming a merged branch came first.
    expect(reply.text).toMatch(/^- `?--force`?: delete a local branch that is not merged yet/);
  });
});

/**
 * A tool whose safety checks are off by default and are turned on with a setting, and a display
 * section where "turn on" is written out: the words "turn … on" alone find the wrong section.
 */
const CHECKS = `# lamplight

## Safety checks

### Checks are off by default

Lamplight has parsed safety checks for a long time, but enforcing them came later. To keep old projects working, safety checks are turned off by default.

Projects can activate {what} at start-up with the setting guard=on in the project file.

### Writing a check

A safety check is a rule the project file names. Lamplight runs every safety check before a build.

## Display

### Line numbers

Turn on line numbers with the numbers command. Turn them off with nonumbers.
`;

describe('a phrasal verb read with its particle', () => {
  it('does not answer "how do I turn them on?" with the passage that says they are turned off', async () => {
    const { ask: chat } = await pipelineSession(
      'lamplight.md',
      CHECKS.replace('{what}', 'their enforcement'),
    );
    expect(chat('Are safety checks enforced out of the box?').text).toMatch(/turned off by default/);
    const reply = chat('How do I turn them on?');
    expect(reply.readAs).toBeDefined();
    // "turned off" holds the search word "turn": without the particle read, the quoted unit came first again.
    expect(reply.text).toMatch(/^Projects can activate their enforcement/);
  });

  it('shows the closest passage on the earlier topic, not an answer about something else that says "turn on"', async () => {
    const { ask: chat } = await pipelineSession('lamplight.md', CHECKS.replace('{what}', 'them'));
    chat('Are safety checks enforced out of the box?');
    const reply = chat('How do I turn them on?');
    expect(reply.confidence.level).toBe('nearest');
    expect(reply.text).toMatch(/guard=on/);
    expect(reply.text).not.toMatch(/line numbers/);
  });
});

describe('"show me an example"', () => {
  it('asks the earlier question again as it was read: its own words, and the ones it carried', () => {
    const history = [...historyOf('Are safety checks enforced out of the box?', 'How do I turn them on?')];
    const read = resolveFollowUp('Show me an example.', history);
    expect(read.kind).toBe('example');
    expect(read.question).toBe('How do I turn them on?');
    expect(read.carried).toBe('Are safety checks enforced out of the box?');
  });

  it('answers from the passage on turning them on, not from the one the conversation started with', async () => {
    const { ask: chat } = await pipelineSession(
      'lamplight.md',
      CHECKS.replace('{what}', 'their enforcement'),
    );
    chat('Are safety checks enforced out of the box?');
    chat('How do I turn them on?');
    expect(chat('Show me an example.').text).toMatch(/^Projects can activate their enforcement/);
  });
});

describe('what a reply writes as code', () => {
  it('is never what "them" stands for, nor is a placeholder of a syntax', () => {
    const history: Turn[] = [
      { role: 'user', content: 'How do I stash my changes together with new files?' },
      {
        role: 'assistant',
        content:
          '- color.decorate.<slot> sets a color for the log. `<slot>` is one of `branch`, `remoteBranch` or `HEAD`. [1]',
      },
    ];
    const read = resolveFollowUp('And how do I get them back later?', history);
    expect(read.kind).toBe('pronoun');
    expect(read.question).toBe('How do I get them back?');
    expect(read.carried).toMatch(/changes together with new files/);
    // A name the reply writes as a word is still one: "Who brought her up?" reads her as Esther.
    const people: Turn[] = [
      { role: 'user', content: 'Who did the king love above all the women?' },
      { role: 'assistant', content: 'Esther. And the king loved Esther above all the women. [1]' },
    ];
    expect(resolveFollowUp('Who brought her up?', people).question).toBe('Who brought Esther up?');
  });
});

/** A line editor's history search, one key for each direction. */
const HISTORY = `# quill

## History

### Searching the history

To search backward through the history as you type, press Ctrl-R.

To search forward through the history, press Ctrl-S.

### Saving the history

The history is saved to a file when the editor exits.
`;

describe('"the other way round?"', () => {
  it('is the question before with its direction word reversed, its carried words kept', () => {
    const read = resolveFollowUp(
      'And the other way round?',
      historyOf('How do I search backward through the history as I type?'),
    );
    expect(read.kind).toBe('ellipsis');
    expect(read.question).toBe('How do I search forward through the history as I type?');
    expect(read.carried).toBe('');
    // Without a direction word in the question before, it leans on it as any fragment does.
    expect(
      resolveFollowUp('The other way round?', historyOf('How do I save the history?')).question,
    ).not.toMatch(/forward|backward/);
  });

  it('answers with the key for the other direction', async () => {
    const { ask: chat } = await pipelineSession('quill.md', HISTORY);
    expect(chat('How do I search backward through the history as I type?').text).toMatch(/Ctrl-R/);
    expect(chat('And the other way round?').text).toMatch(
      /^To search forward through the history, press Ctrl-S/,
    );
  });
});
