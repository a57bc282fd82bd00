import { describe, expect, it } from 'vitest';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import type { Turn } from '../../lib/sessions/index.js';
import { askPipeline } from '../support/pipeline.js';
import { embeddedServices } from '../support/services.js';

/** A conversation whose replies each quote a passage (the focus takes only those). */
function historyOf(...questions: string[]): Turn[] {
  return questions.flatMap((question) => [
    { role: 'user' as const, content: question },
    { role: 'assistant' as const, content: 'The manual says so. [1]' },
  ]);
}

/** A session on a small document trained in the test: each message is asked with the replies so far. */
async function sessionOn(name: string, text: string) {
  const services = embeddedServices({}, { random: () => 0.5 });
  await services.model.train({ format: 'markdown', name, text });
  const knowledge = await services.model.knowledge();
  const history: Turn[] = [];
  return (message: string) => {
    const reply = askPipeline(knowledge, message, history);
    history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
    return reply;
  };
}

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
    const chat = await sessionOn('twig.md', BRANCHES);
    expect(chat('How do I rename a local branch?').text).toMatch(/twig move/);
    expect(chat('And how do I delete one?').text).toMatch(/twig drop/);
    const reply = chat("What if it isn't merged yet?");
    expect(reply.readAs).toBeDefined();
    // With only the first question's words carried, the unit about renaming a merged branch came first.
    expect(reply.text).toMatch(/^- `?--force`?: delete a local branch that is not merged yet/);
  });
});
