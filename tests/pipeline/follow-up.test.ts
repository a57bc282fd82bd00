import { describe, expect, it } from 'vitest';
import { previousPassage, previousPassages, quotedPassages } from '../../lib/pipeline/around.js';
import { gather } from '../../lib/pipeline/gather.js';
import { judge } from '../../lib/pipeline/judge.js';
import { rank } from '../../lib/pipeline/rank.js';
import { REPEAT_PENALTY } from '../../lib/pipeline/tuning.js';
import { evidenceBudgets } from '../../lib/pipeline/types.js';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import type { Reading } from '../../lib/pipeline/understand/index.js';
import { shapeOf } from '../../lib/pipeline/understand/shape.js';
import { EARLIER_NEAREST_PREFACES, NEAREST_PREFACE } from '../../lib/pipeline/wording.js';
import type { Turn } from '../../lib/sessions/index.js';
import { askPipeline, historyOf } from '../support/pipeline.js';
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

/** One exchange: a question and the reply it got. */
function exchange(question: string, answer: string): Turn[] {
  return [
    { role: 'user', content: question },
    { role: 'assistant', content: answer },
  ];
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
    const social = exchange('who are you?', 'A chat assistant.');
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

describe('what the earlier answer said', () => {
  /** Package documentation: how to hold a package, what a hold does, and how to release it. */
  const PACKAGES = `# pkgtool

## Holding packages

To keep a package at its installed version, run pkgtool hold with the package name.

A held package is never upgraded: pkgtool upgrade lists it as kept back.

## Releasing a hold

To undo a hold, run pkgtool unhold with the package name, and the package is upgraded again.
`;

  const knowledgeOf = async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'pkgtool.md', text: PACKAGES });
    return services.model.knowledge();
  };
  const idIn = (passages: Awaited<ReturnType<typeof knowledgeOf>>['passages'], pattern: RegExp) => {
    for (let id = 0; id < passages.size; id++) if (pattern.test(passages.text(id))) return id;
    throw new Error(`no passage ${pattern}`);
  };

  it('finds every passage a reply quoted, each closed by its [n], in the order cited', async () => {
    const { passages } = await knowledgeOf();
    const hold = idIn(passages, /^To keep a package/);
    const held = idIn(passages, /^A held package/);
    const reply =
      'To keep a package at its installed version, run pkgtool hold with the package name. [1] A held package is never upgraded: pkgtool upgrade lists it as kept back. [2]';
    expect(previousPassages(passages, reply)).toEqual([hold, held]);
    // The first is the earlier answer's unit, as before; text after the last mark quotes nothing.
    expect(previousPassage(passages, reply)).toBe(hold);
    expect(previousPassages(passages, `${reply} …`)).toEqual([hold, held]);
  });

  it('marks a passage the reply showed only in part, cut with "…", and does not push it down', async () => {
    const { passages } = await knowledgeOf();
    const hold = idIn(passages, /^To keep a package/);
    const held = idIn(passages, /^A held package/);
    const reply =
      'To keep a package at its installed version, run pkgtool hold with the package name. [1] A held package is never upgraded: pkgtool… [2]';
    expect(quotedPassages(passages, reply)).toEqual([
      { id: hold, partly: false },
      { id: held, partly: true },
    ]);
    const question = 'How do I undo the hold?';
    const rankOf = (partly: number[]) => {
      const reading: Reading = {
        question,
        carried: 'How do I keep a package from being upgraded?',
        shape: shapeOf(question),
        resolved: true,
        prior: hold,
        said: [hold, held],
        partly,
      };
      const searches = gather(passages, [reading], evidenceBudgets.expert, false);
      return rank(passages, searches, question).find((item) => item.hit.id === held)?.rank ?? Number.NaN;
    };
    // What the reply did not show may hold the answer: the unit is neither pushed down nor lifted.
    expect(rankOf([held])).toBeCloseTo(rankOf([]) + REPEAT_PENALTY, 5);
  });

  it('pushes down every unit the earlier answer quoted, not only its first', async () => {
    const { passages } = await knowledgeOf();
    const hold = idIn(passages, /^To keep a package/);
    const held = idIn(passages, /^A held package/);
    const rankOf = (question: string, said: number[]) => {
      const reading: Reading = {
        question,
        carried: 'How do I keep a package from being upgraded?',
        shape: shapeOf(question),
        resolved: true,
        prior: said[0] ?? -1,
        said,
      };
      const searches = gather(passages, [reading], evidenceBudgets.expert, false);
      const found = rank(passages, searches, question).find((item) => item.hit.id === held);
      if (!found) throw new Error('the held passage is not ranked');
      return found.rank;
    };
    // "undo" is what the message is about, and the unit quoted second does not hold it: it is
    // pushed down as the first is, the reader has seen it.
    const undo = 'How do I undo the hold?';
    expect(rankOf(undo, [hold, held])).toBeCloseTo(rankOf(undo, []) - REPEAT_PENALTY, 5);
    expect(rankOf(undo, [hold, held])).toBeLessThan(rankOf(undo, [hold]));
    // A quoted unit that holds the word the message is most about says what is asked now too.
    const upgraded = 'Is a held package upgraded?';
    expect(rankOf(upgraded, [hold, held])).toBeCloseTo(rankOf(upgraded, []), 5);
  });
});

describe('the word a resolved reading requires', () => {
  /** A manual with job control, and a licence that uses one of the question's words in another sense. */
  const JOBS = `# shell

## Job control

### Resuming jobs

The bg builtin resumes a stopped job in the background, as if it had been started with an ampersand.

The fg builtin resumes a stopped job in the foreground.

## Licence

You must carry the notice on every copy you make, and carry the cover texts clearly.
`;

  it('is one that a unit on the earlier topic holds: a rarer word found only elsewhere is not required', async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'shell.md', text: JOBS });
    const { passages } = await services.model.knowledge();
    const question = 'How do I let it carry on in the background?';
    const reading: Reading = {
      question,
      carried: 'How do I stop a job for a moment?',
      shape: shapeOf(question),
      resolved: true,
      prior: -1,
      said: [],
    };
    const searches = gather(passages, [reading], evidenceBudgets.expert, false);
    const ranked = rank(passages, searches, question);
    // "carry" is the rarest word, but only the licence, which shares nothing with the earlier
    // question, holds it: the job unit holding "background" is the one required to answer.
    expect(passages.text(ranked[0].hit.id)).toMatch(/^The bg builtin/);
    expect(ranked[0].hasRarest).toBe(true);
    const licence = ranked.find((item) => /carry the notice/.test(passages.text(item.hit.id)));
    expect(licence?.hasRarest).toBe(false);
  });
});

describe('follow-ups read from the phrase they are', () => {
  it('reads "the others" as the other members of what the earlier "which X" asked about', () => {
    const read = resolveFollowUp('How do I disable the others?', historyOf('Which hook runs first?'));
    expect(read.kind).toBe('pronoun');
    expect(read.question).toBe('How do I disable the other hook?');
    // With no such noun, "the others" is no word to search for; the earlier question is carried.
    const alone = resolveFollowUp('How do I close all the others?', historyOf('How do I split the window?'));
    expect(alone.question).toBe('How do I close all the other?');
  });

  it('attaches a prepositional phrase to the object a pronoun stood for ("how do I paste it?")', () => {
    const read = resolveFollowUp(
      'What about to the system clipboard?',
      historyOf('How do I copy a line?', 'How do I paste it?'),
    );
    expect(read.question).toBe('How do I copy a line to the system clipboard?');
    // "paste" was another action on the line, not what the phrase asks: nothing of it is carried.
    expect(read.carried).toBe('');
  });

  it('keeps an adverb before a prepositional phrase with the phrase ("back in the foreground")', () => {
    const read = resolveFollowUp(
      'And back in the foreground?',
      historyOf('How do I run the job in the background?'),
    );
    expect(read.question).toBe('How do I run the job back in the foreground?');
  });

  it('ends the object of a causative verb before its bare verb, and carries nothing of a pronoun question', () => {
    const read = resolveFollowUp(
      'What about pipelines?',
      historyOf('How do I make a script exit when a command fails?', 'And how do I turn it off again?'),
    );
    expect(read.question).toBe('How do I make pipelines exit when a command fails?');
    // "turn it off again" stood for the topic X now replaces: it is not carried.
    expect(read.carried).toBe('');
  });

  it('reads "that" / "this" right after the verb opening a question as its subject, pointing back', () => {
    const history = historyOf('Can the system upgrade itself automatically?');
    expect(resolveFollowUp('Is that a good idea on unstable?', history).kind).toBe('pronoun');
    expect(resolveFollowUp('Why is that a problem?', history).kind).toBe('pronoun');
    // Before a clause's subject after another verb it joins clauses and points at nothing.
    // (It leans on the conversation only tentatively, by the noun it repeats: "the upgrade".)
    const joined = resolveFollowUp('How do I check that the upgrade finished cleanly?', history);
    expect(joined.kind === 'none' || joined.tentative === true).toBe(true);
    expect(resolveFollowUp('How do I check that the mirror finished cleanly?', history).kind).toBe('none');
  });

  it('puts X in the place of the pronoun of the question asked last when neither has a topic phrase', () => {
    const read = resolveFollowUp(
      'And the serializer?',
      historyOf('Which library validates request data?', 'Can I replace it?'),
    );
    expect(read.kind).toBe('ellipsis');
    expect(read.question).toBe('Can I replace the serializer?');
    // The serializer replaces what "it" stood for: the validator's question is not carried.
    expect(read.carried).toBe('');
    // A topic phrase of the question leaned on comes first ("the default ... limit").
    const other = resolveFollowUp(
      'What about the keep-alive timeout?',
      historyOf('What is the default body size limit?', 'Which error do I get when a request exceeds it?'),
    );
    expect(other.question).toBe('What is the default keep-alive timeout?');
  });
});

describe('what a pronoun stands for', () => {
  it('carries the question a pronoun question leaned on, not the verbs it asked with', () => {
    const history = historyOf('What does the AUTOINCREMENT keyword do?', 'Why should I avoid it?');
    const read = resolveFollowUp('What happens when it runs out of numbers?', history);
    expect(read.kind).toBe('pronoun');
    // "it" is still AUTOINCREMENT; "avoid" was what the turn before asked of it.
    expect(read.carried).toBe('What does the AUTOINCREMENT keyword do?');
    // The noun phrases that turn added are kept: "it" may now be the extension.
    const added = resolveFollowUp(
      'What is it by default?',
      historyOf('Which option keeps a backup?', 'How do I change the extension it gets?'),
    );
    expect(added.carried).toBe('Which option keeps a backup? — extension');
  });

  it('carries the phrase a "what X …?" question asked about: its answer is an X, and "it" stands for that', () => {
    const read = resolveFollowUp('How do I change it?', historyOf('What page size does a new database get?'));
    expect(read.kind).toBe('pronoun');
    expect(read.carried).toBe('page size');
    // A "what" that is the object, or a "which X" that ends at its own verb, gives no phrase: the question is carried.
    expect(
      resolveFollowUp('Why should I avoid it?', historyOf('What does the AUTOINCREMENT keyword do?')).carried,
    ).toBe('What does the AUTOINCREMENT keyword do?');
    expect(resolveFollowUp('How do I change it?', historyOf('Which option keeps a backup?')).carried).toBe(
      'Which option keeps a backup?',
    );
  });

  it('keeps the question leaned on whole for the turns after, where only part of it is carried', () => {
    // "How do I paste it?" carries only "How do I copy a line?"; its frame still takes a phrase.
    const later = resolveFollowUp(
      'What about to the system clipboard?',
      historyOf('How do I copy a line?', 'How do I paste it?', 'How do I undo it?'),
    );
    expect(later.question).toBe('How do I copy a line to the system clipboard?');
  });

  it('keeps the whole question for a demonstrative, which may stand for the action itself', () => {
    const read = resolveFollowUp(
      'When does that fail?',
      historyOf('How do I rename a column?', 'And what about removing one?'),
    );
    expect(read.kind).toBe('pronoun');
    expect(read.carried).toMatch(/^How do I remov(?:e|ing) one\? \(column\)$/);
    // "Which library does it use for that?": "that" is the testing itself.
    const both = resolveFollowUp(
      'Which library does it use for that?',
      historyOf('How do I test my routes?'),
    );
    expect(both.carried).toBe('How do I test my routes?');
  });
});

describe('both readings on the same unit', () => {
  /** A reference whose entries give the default on a line of its own, apart from the description. */
  const REFERENCE = `# harbour

## Options

### bodyLimit

+ Default: \`1048576\` (1MiB)

Defines the maximum payload the server accepts, in bytes.

### keepAliveTimeout

+ Default: \`72000\` (72 seconds)

Defines the server keep-alive timeout in milliseconds.
`;

  it('answers from the resolved reading, whose shape says what is asked of the unit (its default)', async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'harbour.md', text: REFERENCE });
    const knowledge = await services.model.knowledge();
    const history: Turn[] = [];
    const chat = (message: string) => {
      const reply = askPipeline(knowledge, message, history);
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
      return reply;
    };
    expect(chat('What is the default body limit?').text).toMatch(/1048576/);
    const next = chat('What about the keep-alive timeout?');
    expect(next.readAs).toBe('What is the default keep-alive timeout?');
    expect(next.text).toMatch(/72000/);
    // Asked alone, the same words ask for no default.
    expect(askPipeline(knowledge, 'What about the keep-alive timeout?', []).text).not.toMatch(/72000/);
  });
});

describe('two pronouns of one clause', () => {
  it('reads an object pronoun as someone other than the subject of its clause', () => {
    const history = exchange(
      'Who came to see Solomon?',
      'Sheba. And the queen of Sheba came to Solomon with a great company. [1]',
    );
    const read = resolveFollowUp('What did she bring him?', history);
    expect(read.kind).toBe('pronoun');
    // "him" is not "she": that would be "herself".
    expect(read.question).toBe('What did Sheba bring Solomon?');
    // A possessive may stand for the subject ("her company" is her own).
    expect(resolveFollowUp('Where did she leave her company?', history).question).toBe(
      "Where did Sheba leave Sheba's company?",
    );
  });
});

describe('a pronoun agrees with its antecedent in gender', () => {
  it('reads "her" as no name the text calls a king, and "his" as no name it calls a queen', () => {
    const history = exchange(
      'Which queen did king Corvan love above the rest?',
      'And the king loved Tamsin above all the women, and set the crown upon her head. [1]',
    );
    // "king Corvan" is named twice as often as Tamsin, but "her" cannot stand for a king.
    expect(resolveFollowUp('Who brought her up?', history).question).toBe('Who brought Tamsin up?');
    expect(resolveFollowUp('Who was his father?', history).question).toBe("Who was Corvan's father?");
  });
});

describe('"it" after a reply that gave a name', () => {
  /** A release FAQ: the codenames in a list, each entry giving the name first, and where they come from. */
  const FAQ = `# harbour

## Where do the codenames come from?

The codenames are taken from the ships of the old harbour fleet: the choice of ship names was made by the first harbour master, who sailed on all of them.

- gannet (harbour 4) was the fishing trawler of the fleet.
- osprey (harbour 5) was the ferry that crossed the bay.
`;

  it('reads "it" as the name the earlier reply answered with, and answers from the unit that gave it', async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'harbour.md', text: FAQ });
    const knowledge = await services.model.knowledge();
    const history: Turn[] = [];
    const chat = (message: string) => {
      const reply = askPipeline(knowledge, message, history);
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
      return reply;
    };
    expect(chat('What was the codename of harbour 5?').text).toMatch(
      /^(?:- )?osprey \(harbour 5\) was the ferry/,
    );
    const next = chat('Which ship was it named after?');
    expect(next.readAs).toMatch(/^Which ship was osprey named after\?/);
    expect(next.text).toMatch(/ferry/);
  });

  it('leaves "it" to the earlier question where the reply does not open with a name of its own', () => {
    const history = exchange(
      'What was the codename of harbour 5?',
      'The codenames are taken from the ships of the old fleet. [1]',
    );
    const read = resolveFollowUp('Which ship was it named after?', history);
    expect(read.question).toBe('Which ship was it named after?');
    expect(read.named).toBeUndefined();
  });
});

describe('"what X does a new Y get?" asks for a default', () => {
  /** Entries whose description comes first and whose default comes in a paragraph after it. */
  const PRAGMAS = `# quarry

## Pragmas

### page_size

Query or set the page size of the database file. A new page size is remembered and used when a new database is created, or at the next VACUUM.

The page size must be a power of two. The default page size is 4096 bytes.

### cache_size

Query or change the number of database pages held in memory. A new database connection starts with the cache size the pragma last set for it, and the change lasts only for the current session.

The suggested cache size is 2000 pages by default.
`;

  it('reads what a thing just made gets as its default, and so does "what about X?" put in that frame', async () => {
    expect(shapeOf('What page size does a new database get?').wants).toBe('default');
    expect(shapeOf('Which shell does each new user start with?').wants).toBe('default');
    // A plural takes no article: the frame is the same.
    expect(shapeOf('What page size do newly created databases get?').wants).toBe('default');
    expect(shapeOf('What mode do new windows start in?').wants).toBe('default');
    expect(shapeOf('What page size does the database use?').wants).toBe('fact');
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'quarry.md', text: PRAGMAS });
    const knowledge = await services.model.knowledge();
    const history: Turn[] = [];
    const chat = (message: string) => {
      const reply = askPipeline(knowledge, message, history);
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
      return reply;
    };
    expect(chat('What page size does a new database get?').text).toMatch(/4096/);
    const next = chat('What about the cache size?');
    expect(next.readAs).toBe('What cache size does a new database get?');
    expect(next.text).toMatch(/2000 pages/);
  });
});

describe('"it" after a "what X …?" question', () => {
  const FILES = `# quarry

## Pragmas

### page_size

To change the page size of a database that holds data, set the page_size pragma and run VACUUM.

## Compile-time options

### DEFAULT_PAGE_SIZE

The page size a new database gets when it is created comes from this option: change it to change that size.
`;

  it('stands for the X asked about, not the rest of the question', async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'quarry.md', text: FILES });
    const knowledge = await services.model.knowledge();
    const history = historyOf('What page size does a new database get?');
    const reply = askPipeline(knowledge, 'How do I change it?', history);
    expect(reply.text).toMatch(/VACUUM/);
  });
});

describe('"and" before a whole question', () => {
  it('reads the question on its own, leaning where its pronoun points, not as an ellipsis', () => {
    const read = resolveFollowUp('And how do I paste it?', historyOf('How do I copy a cell?'));
    expect(read.kind).toBe('pronoun');
    expect(read.question).toBe('How do I paste it?');
    // Without a pronoun of its own, the conjunction is what leans on the conversation.
    const bare = resolveFollowUp('And how do I go back?', historyOf('How do I open the archive?'));
    expect(bare.kind).toBe('ellipsis');
    expect(bare.carried).toBe('How do I open the archive?');
    // "And with a time limit?" is no whole question: an ellipsis as before.
    expect(resolveFollowUp('And with a time limit?', historyOf('How do I read a line?')).kind).toBe(
      'ellipsis',
    );
  });
});

describe('a pronoun after another action on the same thing', () => {
  it('carries the earlier object and what followed it, not the earlier verb', () => {
    expect(resolveFollowUp('And how do I paste it?', historyOf('How do I copy a cell?')).carried).toBe(
      'cell',
    );
    expect(
      resolveFollowUp(
        'How do I let it run in the background?',
        historyOf('How do I pause a running job for a moment?'),
      ).carried,
    ).toBe('running job for a moment');
    // After a question that leaned on one before it, the object comes from that one, and what
    // the turn between asked of the action ("faster") goes with the action.
    expect(
      resolveFollowUp(
        'And how do I repair the sheet if it is broken?',
        historyOf('How do I check a sheet for damage?', 'Is there a faster one?'),
      ).carried,
    ).toBe('sheet for damage');
  });

  it('keeps the earlier question whole after the same verb, and after a causative verb (its object is a clause)', () => {
    expect(resolveFollowUp('How do I copy it twice?', historyOf('How do I copy a cell?')).carried).toBe(
      'How do I copy a cell?',
    );
    expect(
      resolveFollowUp('How do I turn it off?', historyOf('How do I make a script stop on errors?')).carried,
    ).toBe('How do I make a script stop on errors?');
  });

  it('answers from the unit about the new action on that thing, not the one about the earlier action', async () => {
    /** A spreadsheet guide: copying a cell, the clipboard for both actions, and pasting a cell. */
    const GUIDE = `# gridle

## Cells

### Copying cells

To copy a cell, select the cell and press C. The copied cell is kept in the register.

### The clipboard

Cells copied or pasted between gridle and other programs go through the system clipboard: copy a cell with the Copy menu, paste it with the Paste menu.

### Pasting cells

To paste a cell, press P. The cell from the register goes below the current cell.
`;
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'gridle.md', text: GUIDE });
    const knowledge = await services.model.knowledge();
    const history: Turn[] = [];
    const chat = (message: string) => {
      const reply = askPipeline(knowledge, message, history);
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
      return reply;
    };
    expect(chat('How do I copy a cell?').text).toMatch(/press C/);
    const next = chat('And how do I paste it?');
    // The clipboard unit holds the earlier verb too ("copy"): with it carried, it came first.
    expect(next.text).toMatch(/^To paste a cell, press P/);
  });
});

/**
 * What the gather stage hands the judge for a follow-up, as written or resolved (numbers stand in
 * for a real search's), and a unit the rank stage scored, for tests of the judge alone.
 */
function searchOf(question: string, resolved: boolean) {
  return {
    reading: {
      question,
      carried: resolved ? 'sheet damage' : '',
      shape: shapeOf(question),
      resolved,
      prior: -1,
      said: [],
    },
    query: [],
    idf: [],
    own: 3,
    counted: resolved ? 5 : 3,
    ownWeight: 3,
    unknownWords: [],
    unknownSubject: false,
    unknownName: false,
    rarest: 0,
    hits: [],
  } as unknown as Parameters<typeof judge>[0][number];
}

function unit(id: number, reading: number, rankValue: number, coverage = 0.66) {
  return {
    hit: { id, score: 1, ownScore: 1, matched: [1, 2], matchedNearby: [], matchedHeading: [] },
    reading,
    coverage,
    covered: 3 * coverage,
    hasRarest: false,
    proximity: 0,
    fitsWanted: false,
    rank: rankValue,
  };
}

describe('a follow-up that neither reading answers', () => {
  it('shows the closest passage of the reading resolved against the conversation', () => {
    // Numbers stand in for the rank stage's: as written, two units cover two thirds of the message
    // without its rarest word (a paraphrase: the closest passage); resolved, the same holds of
    // two units on the earlier topic.
    const message = 'How do I salvage the cells if it is broken?';
    const judged = judge(
      [searchOf(message, false), searchOf(message, true)],
      [unit(1, 0, 1.3), unit(2, 0, 1.29), unit(3, 1, 1.2), unit(4, 1, 1.19), unit(5, 0, 0.5)],
    );
    expect(judged.confidence.level).toBe('nearest');
    expect(judged.best?.reading).toBe(1);
    expect(judged.best?.hit.id).toBe(3);
  });
});

describe('a message whose own words a pronoun stands for', () => {
  const history = exchange(
    'Who keeps the harbour light?',
    'Tobin Quist. The harbour light is kept by Tobin Quist. [1]',
  );

  it('reads "they" after a plural noun of the same message as that noun, leaning on nothing', () => {
    const read = resolveFollowUp('Where do I keep my lanterns so that they stay dry?', history);
    expect(read.kind).toBe('none');
    expect(read.question).toBe('Where do I keep my lanterns so that they stay dry?');
    // With no plural noun of its own, "they" still leans on the conversation.
    expect(resolveFollowUp('Where did they live?', history).kind).toBe('pronoun');
  });

  it('takes no name from the words a closest-passage reply opens with, as this release or an earlier one wrote them', () => {
    for (const preface of [NEAREST_PREFACE, ...EARLIER_NEAREST_PREFACES]) {
      const hedged = exchange(
        'How do I keep the lamp lit?',
        `${preface}Always trim the wick before dusk. [1]`,
      );
      const read = resolveFollowUp('Where does he live?', hedged);
      expect(read.question).not.toMatch(/Always/);
    }
  });
});

describe('a follow-up that only its resolved reading comes close to', () => {
  it('shows the closest passage on the earlier topic where the message as written finds nothing', () => {
    // As written, the best unit covers too little of the message to be shown at all; resolved
    // against the conversation, two units on the earlier topic cover two thirds of it.
    const message = 'And if I want to keep it?';
    const judged = judge(
      [searchOf(message, false), searchOf(message, true)],
      [unit(1, 0, 1.3, 0.2), unit(2, 0, 1.29, 0.2), unit(3, 1, 1.2, 0.66), unit(4, 1, 1.19, 0.66)],
    );
    expect(judged.confidence.level).toBe('nearest');
    expect(judged.best?.reading).toBe(1);
    expect(judged.best?.hit.id).toBe(3);
  });
});

describe('an adverb that ties a follow-up to the turn before', () => {
  it('is left out of the resolved reading: "anyway", "later" stand for what was said', () => {
    const anyway = resolveFollowUp(
      'And if I want to overwrite it anyway?',
      historyOf('How do I stop redirection from overwriting existing files?'),
    );
    expect(anyway.kind).not.toBe('none');
    expect(anyway.question).toBe('If I want to overwrite it?');
    const later = resolveFollowUp('How do I undo that later?', historyOf('How do I hold a package?'));
    expect(later.question).toBe('How do I undo that?');
  });

  it('keeps the adverb where it is not at the end of the clause ("later versions")', () => {
    const read = resolveFollowUp('Does it work in later versions?', historyOf('How do I hold a package?'));
    expect(read.question).toBe('Does it work in later versions?');
  });

  it('answers "and if I want to overwrite it anyway?" from the passage on the earlier topic', async () => {
    const SHELL = `# shellish

## Redirection

### Protecting files

Set the noclobber option to stop output redirection from overwriting existing files.

The >| operator overrides noclobber: the output is written over the existing file all the same.

## Prompts

### Prompt strings

The prompt string is shown before each command is read.
`;
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'shellish.md', text: SHELL });
    const knowledge = await services.model.knowledge();
    const history: Turn[] = [];
    const chat = (message: string) => {
      const reply = askPipeline(knowledge, message, history);
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
      return reply;
    };
    expect(chat('How do I stop redirection from overwriting existing files?').text).toMatch(/noclobber/);
    const next = chat('And if I want to overwrite it anyway?');
    // "anyway" was never taught: searched, it would count against every unit, and the message
    // would find nothing to say.
    expect(next.kind).not.toBe('unknown');
    // Shown as a whole question (searched: "If I want to overwrite it?" with the earlier words).
    expect(next.readAs).toBe('What if I want to overwrite it?');
    expect(next.text).toMatch(/noclobber/);
    expect(next.leansOn).toBe(1);
  });
});

describe('"it" in a question of another form after "how do I <verb> X?"', () => {
  it('stands for X, not for the earlier action, unless the message names that action again', () => {
    expect(
      resolveFollowUp('What level does it use then?', historyOf('How do I turn on logging in the server?'))
        .carried,
    ).toBe('logging in the server');
    expect(
      resolveFollowUp('Where does it keep them?', historyOf('How do I back up the database?')).carried,
    ).toBe('database');
    expect(
      resolveFollowUp('Is it turned on already?', historyOf('How do I turn on the cache?')).carried,
    ).toBe('How do I turn on the cache?');
  });

  it('answers "what level does it use?" from the unit about the thing, not the one about turning it on', async () => {
    const QUILL = `# quill

## Logging

### Turning logging on

Turn on logging with the logger setting, and turn it on at the debug level to see every request.

### Log levels

The logger uses the info level unless another level is given.

## Hooks

### Turning hooks on

Turn on a hook with addHook at any level of the application.
`;
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'quill.md', text: QUILL });
    const knowledge = await services.model.knowledge();
    const history: Turn[] = [];
    const chat = (message: string) => {
      const reply = askPipeline(knowledge, message, history);
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
      return reply;
    };
    expect(chat('How do I turn on logging?').text).toMatch(/logger setting/);
    const next = chat('What level does it use?');
    expect(next.text).toMatch(/info level/);
  });
});
