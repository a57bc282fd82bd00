import { describe, expect, it } from 'vitest';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import { historyOf, pipelineSession } from '../support/pipeline.js';

describe('a quantifier without its noun, or "ones"', () => {
  it('leans on the conversation: the noun it leaves out is the one just named', () => {
    const history = historyOf('How do I attach a second database file to a connection?');
    for (const message of [
      'How many can I have at the same time?',
      'Can I have several?',
      'Which ones are read-only?',
    ]) {
      const resolved = resolveFollowUp(message, history);
      expect(resolved.kind, message).toBe('pronoun');
      expect(resolved.carried, message).toMatch(/attach a second database/);
    }
  });

  it('leaves a quantifier with its own noun alone', () => {
    const history = historyOf('How do I attach a second database file to a connection?');
    for (const message of [
      'How many hooks are there?',
      'How much memory does the server need?',
      'Are many users online?',
    ])
      expect(resolveFollowUp(message, history).kind, message).toBe('none');
  });

  it('is answered from the earlier topic through the pipeline', async () => {
    const { ask } = await pipelineSession(
      'pond.md',
      `# Pond database manual

## Attaching databases

The ATTACH statement adds another database file to the current connection under a schema name.

At most ten databases can be attached to one connection at the same time.

## Users

Several users can read a Pond database together, but only one can write.

## Backups

The backup command copies a database while it is in use.
`,
    );
    ask('How do I attach another database file to my connection?');
    const reply = ask('How many can I have at the same time?');
    expect(reply.readAs).toBeDefined();
    expect(reply.text).toMatch(/ten databases/);
  });
});
