import { describe, expect, it } from 'vitest';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import { historyOf } from '../support/pipeline.js';

describe('a verb whose object is an action ("how do I undo it?")', () => {
  it('carries the earlier action with its verb, where another verb carries only the thing', () => {
    const undo = resolveFollowUp(
      'And how do I undo it?',
      historyOf('How do I stage a file for the next commit?'),
    );
    expect(undo.kind).toBe('pronoun');
    expect(undo.carried).toBe('stage a file for the next commit');
    // "remove it" acts on the file itself: the earlier verb would only draw the units about staging.
    const remove = resolveFollowUp(
      'And how do I remove it?',
      historyOf('How do I stage a file for the next commit?'),
    );
    expect(remove.carried).toBe('file for the next commit');
  });
});

describe('"what about X?" after a question whose verb has a person for its object', () => {
  it('puts X in the place of the noun phrase after that person ("train you on my documents")', () => {
    const read = resolveFollowUp(
      'What about a whole folder?',
      historyOf('How do I train you on my documents?'),
    );
    expect(read.question).toBe('How do I train you on a whole folder?');
    expect(resolveFollowUp('What about a PDF?', historyOf('How do I teach you a text file?')).question).toBe(
      'How do I teach you a PDF?',
    );
    // "them" may stand for things: it is the object itself, and nothing after it is the topic.
    expect(
      resolveFollowUp('What about the errors?', historyOf('How do I sort them by date?')).question,
    ).not.toMatch(/sort them by the errors/);
  });
});

describe('"it" before a verb of cost or time with a to-infinitive after it', () => {
  it('stands for nothing (extraposition): the question stands alone', () => {
    expect(resolveFollowUp('How long does it take to train?', historyOf('How do I add a remote?')).kind).toBe(
      'none',
    );
    expect(
      resolveFollowUp('How much does it cost to host a repository?', historyOf('How do I add a remote?'))
        .kind,
    ).toBe('none');
    // Without the infinitive, "it" is what the conversation was about.
    expect(resolveFollowUp('How long does it take?', historyOf('How do I add a remote?')).kind).toBe(
      'pronoun',
    );
  });
});
