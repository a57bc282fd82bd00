import { describe, expect, it } from 'vitest';
import { queryOf } from '../../lib/pipeline/gather.js';
import { pipelineSession } from '../support/pipeline.js';

/** A shell guide where the alternative a question rejects is the rarest word it writes. */
const GUIDE = `# Kestrel shell guide

## Sourcing a script

The dot builtin runs the commands of a script in the current shell, so the variables it sets stay set afterwards.

## Running a script by name

When a script is run by name, the shell starts a new process to execute its commands, and the variables it sets are gone when it ends.

## The prompt

The shell prints the prompt before it reads each command line in the current session.

## History

The shell keeps the command lines of the current session in its history list.
`;

describe('a question that rejects an alternative ("rather than", "instead of")', () => {
  it('is answered about the side it asks for, not the one it rejects', async () => {
    const { ask } = await pipelineSession('guide.md', GUIDE);
    const reply = ask("How do I run a script's commands in the current shell rather than in a new one?");
    expect(reply.text).toMatch(/^The dot builtin/);
  });

  it('searches the rejected words at a low weight, never as the question’s own', () => {
    const query = queryOf('How do I send the results to a file instead of the screen, every time?', '');
    expect(query.map((term) => term.word)).not.toContain('screen');
    expect(query.map((term) => term.word)).toContain('time');
    const carried = queryOf('and the errors?', 'How do I send the results to a file instead of the screen?');
    expect(carried.map((term) => term.word)).not.toContain('screen');
  });
});
