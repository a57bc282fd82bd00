import { describe, expect, it } from 'vitest';
import { gather } from '../../lib/pipeline/gather.js';
import { rank } from '../../lib/pipeline/rank.js';
import { evidenceBudgets } from '../../lib/pipeline/types.js';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import type { Reading } from '../../lib/pipeline/understand/index.js';
import { shapeOf } from '../../lib/pipeline/understand/shape.js';
import type { Turn } from '../../lib/sessions/index.js';
import { askPipeline } from '../support/pipeline.js';
import { embeddedServices } from '../support/services.js';

/** A small manual written as server documentation is: settings with their defaults, how-tos. */
const MANUAL = `# tidewater

## Timeouts

### Connect timeout

The connect timeout is how long the client waits for a connection. The default connect timeout is 5 seconds.

### Idle timeout

The idle timeout closes a connection nobody has used. The default idle timeout is 90 seconds.

## Columns

### Renaming a column

To rename a column, run ALTER TABLE with RENAME COLUMN and the new name.

### Dropping a column

To remove a column, run ALTER TABLE with DROP COLUMN. The column's data is purged from the table.
`;

/** A conversation whose replies each quote a passage (the focus takes only those). */
function historyOf(...questions: string[]): Turn[] {
  return questions.flatMap((question) => [
    { role: 'user' as const, content: question },
    { role: 'assistant' as const, content: 'The manual says so. [1]' },
  ]);
}

describe('"what about X?" and "and X?": the earlier question with X in its place', () => {
  it('puts a noun phrase in place of the earlier one with the same head noun, keeping "default"', () => {
    const read = resolveFollowUp(
      'What about the idle timeout?',
      historyOf('What is the default connect timeout?'),
    );
    expect(read.kind).toBe('ellipsis');
    expect(read.question).toBe('What is the default idle timeout?');
    expect(read.carried).toBe('');
  });

  it('puts a noun phrase in place of the object of "how do I <verb>", keeping the verb', () => {
    const read = resolveFollowUp(
      'What about triggers?',
      historyOf('How do I enable foreign key constraints?'),
    );
    expect(read.question).toBe('How do I enable triggers?');
    // A determiner of X replaces the earlier one, and "what page size" takes "cache size" after "what".
    expect(
      resolveFollowUp('And what about the pipelines?', historyOf('How do I stop a script?')).question,
    ).toBe('How do I stop the pipelines?');
    expect(
      resolveFollowUp('What about the cache size?', historyOf('What page size does a new database get?'))
        .question,
    ).toBe('What cache size does a new database get?');
  });

  it('reads a gerund as a new action on the earlier object: "how do I" with its verb, the object carried', () => {
    const read = resolveFollowUp('And what about removing one?', historyOf('How do I rename a column?'));
    expect(read.kind).toBe('ellipsis');
    expect(read.question).toMatch(/^How do I remov(?:e|ing) one\?$/);
    expect(read.carried).toBe('column');
  });

  it('puts a prepositional phrase in place of the earlier one with the same preposition', () => {
    const read = resolveFollowUp('And on Windows?', historyOf('How do I install the client on Linux?'));
    expect(read.question).toBe('How do I install the client on Windows?');
    // After "how do I <verb> <object>" the phrase follows the object; what followed it is carried.
    const after = resolveFollowUp(
      'And for routes that do not exist?',
      historyOf('How do I handle errors from all routes in one place?'),
    );
    expect(after.question).toBe('How do I handle errors for routes that do not exist?');
    expect(after.carried).toBe('from all routes in one place');
    // Otherwise an adjunct of a new kind is searched as the message's words, the earlier question carried.
    const added = resolveFollowUp('And with a time limit?', historyOf('Which builtin reads a line?'));
    expect(added.question).toBe('With a time limit?');
    expect(added.carried).toBe('Which builtin reads a line?');
  });

  it('takes a name with its number as one name ("Debian 9" -> "Debian 10")', () => {
    const read = resolveFollowUp('And Debian 10?', historyOf('What was the codename of Debian 9?'));
    expect(read.question).toBe('What was the codename of Debian 10?');
  });

  it('reads "one" after "which" or a comparative as the noun the earlier "which X" question asked about', () => {
    const read = resolveFollowUp(
      'And which one runs last?',
      historyOf('Which hook runs first for each request?'),
    );
    expect(read.question).toBe('Which hook runs last?');
    expect(
      resolveFollowUp('Is there a faster one?', historyOf('Which command checks the file?')).question,
    ).toBe('Is there a faster command?');
  });

  it('keeps a question the documents did not answer in focus, but not small talk', () => {
    const history: Turn[] = [
      { role: 'user', content: 'How do I test my routes without a server?' },
      { role: 'assistant', content: "Sorry, I can't answer that." },
      { role: 'user', content: 'thanks!' },
      { role: 'assistant', content: "You're welcome!" },
    ];
    const read = resolveFollowUp('Which library does it use for that?', history);
    expect(read.kind).toBe('pronoun');
    expect(read.carried).toBe('How do I test my routes without a server?');
    expect(read.leansOn).toBe(1);
    // Small talk alone gives a follow-up nothing to lean on.
    const social: Turn[] = [
      { role: 'user', content: 'who are you?' },
      { role: 'assistant', content: 'A chat assistant.' },
    ];
    expect(resolveFollowUp('Which library does it use for that?', social).kind).toBe('none');
  });

  it('reads "the others" as leaning on the conversation, as a pronoun does', () => {
    const read = resolveFollowUp('How do I close all the others?', historyOf('How do I split the window?'));
    expect(read.kind).toBe('pronoun');
    expect(read.carried).toBe('How do I split the window?');
  });

  it('leaves a question that stands on its own alone', () => {
    const read = resolveFollowUp('How do I drop a column?', historyOf('How do I rename a column?'));
    expect(read.kind).toBe('none');
    expect(read.question).toBe('How do I drop a column?');
  });
});

describe('follow-ups answered through the pipeline, on a small manual', () => {
  const ask = async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'tidewater.md', text: MANUAL });
    const knowledge = await services.model.knowledge();
    const history: Turn[] = [];
    return (message: string) => {
      const reply = askPipeline(knowledge, message, history);
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
      return reply;
    };
  };

  it('answers "what about the idle timeout?" with the idle timeout\'s default', async () => {
    const chat = await ask();
    expect(chat('What is the default connect timeout?').text).toMatch(/5 seconds/);
    const next = chat('What about the idle timeout?');
    expect(next.text).toMatch(/90 seconds/);
    expect(next.readAs).toBe('What is the default idle timeout?');
  });

  it('answers "and what about removing one?" with how to remove a column', async () => {
    const chat = await ask();
    expect(chat('How do I rename a column?').text).toMatch(/RENAME COLUMN/);
    const next = chat('And what about removing one?');
    expect(next.text).toMatch(/DROP COLUMN/);
    expect(next.leansOn).toBe(1);
  });
});

describe('the earlier answer as a prior', () => {
  const CACHE = `# tidewater

## Caching

### Turning the cache on

Turn the cache on with the cache setting set to true.

The cache keeps each response in memory for one minute.

### Emptying the cache

Call clear to empty the cache at once.
`;

  it("lifts a unit of the earlier answer's section only when it holds some of the message's own words", async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'tidewater.md', text: CACHE });
    const { passages } = await services.model.knowledge();
    const idOf = (pattern: RegExp) => {
      for (let id = 0; id < passages.size; id++) if (pattern.test(passages.text(id))) return id;
      throw new Error(`no passage ${pattern}`);
    };
    const earlier = idOf(/^Turn the cache on/);
    const question = 'How do I empty it?';
    const reading = (prior: number): Reading => ({
      question,
      carried: 'How do I turn the cache on?',
      shape: shapeOf(question),
      resolved: true,
      prior,
      said: prior >= 0 ? [prior] : [],
    });
    const rankOf = (prior: number, id: number) => {
      const searches = gather(passages, [reading(prior)], evidenceBudgets.expert, false);
      const found = rank(passages, searches, question).find((item) => item.hit.id === id);
      if (!found) throw new Error(`passage ${id} not ranked`);
      return found.rank;
    };
    // "The cache keeps ..." shares only the carried "cache": the earlier answer's section does not lift it.
    const carriedOnly = idOf(/^The cache keeps/);
    expect(rankOf(earlier, carriedOnly)).toBe(rankOf(-1, carriedOnly));
    // A unit with the new verb is where the answer is: the prior still counts there.
    const withOwnWord = idOf(/^Call clear/);
    expect(rankOf(earlier, withOwnWord)).toBeGreaterThanOrEqual(rankOf(-1, withOwnWord));
  });
});

describe('a resolved follow-up keeps the earlier topic', () => {
  const SHELL = `# shell

## Traps

The trap builtin runs a command when the shell receives a signal.

Run trap -l to print the name of each signal the shell receives.

## Aliases

Type alias alone to see the list of every alias name.
`;

  it("ranks a unit that holds some carried word above one with only the message's own words", async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'shell.md', text: SHELL });
    const { passages } = await services.model.knowledge();
    const question = 'How do I list the names?';
    const reading: Reading = {
      question,
      carried: 'How do I run a command when my script receives a signal?',
      shape: shapeOf(question),
      resolved: true,
      prior: -1,
      said: [],
    };
    const searches = gather(passages, [reading], evidenceBudgets.expert, false);
    const order = rank(passages, searches, question).map((item) => passages.text(item.hit.id));
    const withTopic = order.findIndex((text) => text.startsWith('Run trap -l'));
    const withoutTopic = order.findIndex((text) => text.startsWith('Type alias alone'));
    // The alias entry has more of the message's own words, but nothing of the earlier topic.
    expect(withTopic).toBeGreaterThanOrEqual(0);
    expect(withTopic).toBeLessThan(withoutTopic);
  });
});
