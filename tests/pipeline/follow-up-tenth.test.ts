import { beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import type { Services } from '../../lib/services/index.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { historyOf } from '../support/pipeline.js';
import { embeddedServices, postJson } from '../support/services.js';

type Ask = (message: string) => Promise<{ text: string; thought?: string }>;

/** A conversation on Variant A (one session) or Variant B (its own earlier replies as history). */
function conversation(services: Services, way: 'A' | 'B'): Ask {
  if (way === 'A') {
    const chat = endpoint(chatHandlers(() => services));
    const sessionId = `s-${Math.random().toString(36).slice(2)}`;
    return async (message) => {
      const body = await (
        await chat.fetch(postJson('http://localhost/api/chat', { message, sessionId, raw: true }))
      ).json();
      return { text: body.response, thought: body.thought };
    };
  }
  const chat = endpoint(variantBChatHandlers(() => services));
  const history: { role: 'user' | 'assistant'; content: string }[] = [];
  return async (message) => {
    const body = await (
      await chat.fetch(postJson('http://localhost/api/api/chat', { message, history }))
    ).json();
    history.push({ role: 'user', content: message }, { role: 'assistant', content: body.response });
    return { text: body.response, thought: body.thought };
  };
}

/** What `thought` says the message was read as. */
function readAs(thought: string | undefined): string {
  return /^read as: "([^"]*)"/.exec(thought ?? '')?.[1] ?? '';
}

/** A grammatical English question: opened by a question word or an auxiliary, one "?" at its end. */
const WHOLE_QUESTION = /^(?:How|What|Which|Who|When|Where|Why|Is|Are|Can|Does|Do)\b[^?]*\?$/;

/** A small editor's manual: undo and redo, searching both ways through the history, windows, remote servers. */
const EDITOR = `# quill

## Undo and redo

To undo your last change, press u. To redo a change you undid, press CTRL-R.

To undo all the changes on one line, press U.

## Searching the history

To search backward through the history, press CTRL-B. To search forward through the history, press CTRL-F.

## Windows

To split the window side by side, run :vsplit. To close all the other windows, run :only.

## Remote servers

Clients that only speak the old protocol can still connect to a quill server. With TLS they connect on port 7443.
`;

describe('the resolved reading is shown as a whole question', () => {
  it('words a verb with a pronoun object in the earlier frame ("and redo it?")', () => {
    const read = resolveFollowUp('And redo it?', historyOf('How do I undo my last change in quill?'));
    expect(read.shown).toBe('How do I redo it in quill?');
    // What is searched is as before: the earlier question with the verb in its topic's place.
    expect(read.question).toBe('How do I undo redo it in quill?');
  });

  it('shows the next turn against that wording, not against the searched one', () => {
    const read = resolveFollowUp(
      'What about all the changes on one line?',
      historyOf('How do I undo my last change in quill?', 'And redo it?'),
    );
    expect(read.shown).toBe('How do I undo all the changes on one line in quill?');
    expect(read.lastShown).toMatch(/^How do I redo it in quill\?/);
  });

  it('words a named direction as the earlier question with its direction swapped', () => {
    const read = resolveFollowUp(
      'What about forward?',
      historyOf('Which key searches backward through the history?'),
    );
    expect(read.shown).toBe('Which key searches forward through the history?');
    expect(read.question).toBe('What is forward?');
  });

  it('keeps "the others" where no noun names them', () => {
    const read = resolveFollowUp(
      'How do I close all the others?',
      historyOf('How do I split the window side by side?'),
    );
    expect(read.shown).toBe('How do I close all the others?');
  });

  it('says a prepositional phrase after the earlier question, another fragment as "what about X?"', () => {
    const tls = resolveFollowUp(
      'And with TLS?',
      historyOf('Can clients that only speak the old protocol connect?'),
    );
    expect(tls.shown).toBe('Can clients that only speak the old protocol connect with TLS?');
    const range = resolveFollowUp(
      'What about a whole range of commits?',
      historyOf('How do I copy one commit onto my branch?'),
    );
    expect(range.shown ?? range.question).toMatch(WHOLE_QUESTION);
  });

  it('adds nothing where the reading is a whole question already', () => {
    const read = resolveFollowUp('what about triggers?', historyOf('How do I enable foreign keys?'));
    expect(read.question).toBe('How do I enable triggers?');
    expect(read.shown).toBeUndefined();
    expect(
      resolveFollowUp('How do I delete one?', historyOf('How do I rename a branch?')).shown,
    ).toBeUndefined();
  });
});

describe('"read as" in thought is a whole question, on Variant A and Variant B', () => {
  let services: Services;
  beforeAll(async () => {
    services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'quill.md', text: EDITOR });
  });

  for (const way of ['A', 'B'] as const) {
    it(`Variant ${way}: "and redo it?", then "what about all the changes on one line?"`, async () => {
      const chat = conversation(services, way);
      expect((await chat('How do I undo my last change in quill?')).text).toMatch(/press u/);
      const redo = await chat('And redo it?');
      expect(redo.text).toMatch(/CTRL-R/);
      expect(readAs(redo.thought)).toBe('How do I redo it in quill?');
      const line = await chat('What about all the changes on one line?');
      expect(line.text).toMatch(/press U/);
      expect(readAs(line.thought)).toBe('How do I undo all the changes on one line in quill?');
      expect(line.thought).not.toMatch(/undo redo/);
    });

    it(`Variant ${way}: "what about forward?" and "and with TLS?"`, async () => {
      const chat = conversation(services, way);
      expect((await chat('Which key searches backward through the history?')).text).toMatch(/CTRL-B/);
      const forward = await chat('What about forward?');
      expect(forward.text).toMatch(/CTRL-F/);
      expect(readAs(forward.thought)).toBe('Which key searches forward through the history?');

      const other = conversation(services, way);
      await other('Can clients that only speak the old protocol connect?');
      const tls = await other('And with TLS?');
      expect(tls.text).toMatch(/7443/);
      expect(readAs(tls.thought)).toMatch(WHOLE_QUESTION);
      expect(readAs(tls.thought)).toMatch(/with TLS\?$/);
    });
  }
});

describe('a reading that carries a turn shown in other words', () => {
  it('is shown beside that turn as the user was shown it', () => {
    const read = resolveFollowUp(
      'And how do I open a file in a new tab instead?',
      historyOf('How do I split the window side by side?', 'How do I close all the others?'),
    );
    expect(read.carried).toMatch(/the other\?/);
    expect(read.shown).toBe('How do I open a file in a new tab?');
    expect(read.lastShown).toBe('How do I close all the others? (How do I split the window side by side?)');
  });
});

describe('a chain of follow-ups in thought', () => {
  it('quotes a turn that leaned on another beside it, not in brackets inside brackets', async () => {
    const services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'quill.md', text: EDITOR });
    for (const way of ['A', 'B'] as const) {
      const chat = conversation(services, way);
      await chat('How do I split the window side by side?');
      await chat('How do I close all the others?');
      const tab = await chat('Tell me more.');
      expect(tab.thought).toMatch(
        /about the answer to turn \d+ \("How do I close all the others\?", after "How do I split the window side by side\?"\)/,
      );
      expect(tab.thought).not.toMatch(/\? \(How do I/);
    }
  });
});

/** A short family story: who married whom, her brother, her sons. */
const FAMILY = `# The family

## The marriage

Isaac took Rebekah, and she became his wife.

## Her brother

Rebekah had a brother, and his name was Laban. Laban kept the sheep of the valley.

Laban had twin sons too, and their names were Beor and Bela.

## Her sons

Rebekah bore twin sons: the first was Esau, and the second was Jacob.
`;

describe('the answer to a "who" question about a role of natural gender', () => {
  const history = [
    { role: 'user' as const, content: 'Who became the wife of Isaac?' },
    { role: 'assistant' as const, content: 'Rebekah. Isaac took Rebekah, and she became his wife. [1]' },
    { role: 'user' as const, content: 'Who was her brother?' },
    { role: 'assistant' as const, content: 'Laban. Rebekah had a brother, and his name was Laban. [1]' },
  ];

  it('has that gender: "her" after "Laban" (the brother) stands for Rebekah', () => {
    const read = resolveFollowUp('And her twin sons?', history);
    expect(read.question).toBe("Who were Rebekah's twin sons?");
    const his = resolveFollowUp('And his sheep?', history);
    expect(his.question).toMatch(/Laban's sheep/);
  });

  let services: Services;
  beforeAll(async () => {
    services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'family.md', text: FAMILY });
  });

  for (const way of ['A', 'B'] as const) {
    it(`Variant ${way}: reads "and her twin sons?" about Rebekah, not about her brother`, async () => {
      const chat = conversation(services, way);
      expect((await chat('Who became the wife of Isaac?')).text).toMatch(/Rebekah/);
      expect((await chat('Who was her brother?')).text).toMatch(/Laban/);
      const sons = await chat('And her twin sons?');
      // As written, "twin sons" fits Laban's as well: only the reading against the conversation
      // tells whose, and "her" cannot stand for the brother.
      expect(sons.text).toMatch(/^Esau\. Rebekah bore twin sons/);
      expect(readAs(sons.thought)).toBe("Who were Rebekah's twin sons?");
    });
  }
});
