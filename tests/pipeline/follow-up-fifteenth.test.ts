import { describe, expect, it } from 'vitest';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import { historyOf, pipelineSession } from '../support/pipeline.js';

const EARLIER = 'How do I delete a remote branch?';

describe('a definite noun phrase that repeats a noun of the earlier question', () => {
  it('leans on the conversation, tentatively, with the earlier question carried', () => {
    const history = historyOf(EARLIER);
    for (const message of [
      'Can I undo the deletion?',
      'What happens to the commits on the branch?',
      'How long does the deletion take?',
    ]) {
      const read = resolveFollowUp(message, history);
      expect(read.kind, message).toBe('pronoun');
      expect(read.tentative, message).toBe(true);
      expect(read.carried, message).toBe(EARLIER);
    }
  });

  it('does not lean where the noun phrase repeats nothing', () => {
    const history = historyOf(EARLIER);
    for (const message of ['Is the command safe?', 'What is the default?', 'Where is the manual kept?'])
      expect(resolveFollowUp(message, history).kind, message).toBe('none');
    expect(resolveFollowUp('Can I undo the deletion?', []).kind).toBe('none');
  });
});

/** Two sections that answer "can I undo the deletion?" alike; only the conversation tells which. */
const GUIDE = `# Wren version control

## Deleting files

Remove a tracked file with wren rm FILE. The file disappears from the next snapshot.

To undo the deletion of a file, run wren restore FILE before you take the next snapshot.

## Deleting remote branches

Delete a remote branch with wren push --delete REMOTE BRANCH. Other clones keep their copy until they prune.

To undo the deletion of a remote branch, push it again from any clone that still has it: wren push REMOTE BRANCH.

## Renaming branches

Rename the current branch with wren branch --move NEW.
`;

describe('answering such a follow-up', () => {
  it('answers from the earlier topic where the message alone fits two places alike', async () => {
    const { ask } = await pipelineSession('wren.md', GUIDE);
    ask('How do I delete a remote branch?');
    const reply = ask('Can I undo the deletion?');
    expect(reply.confidence.level).toBe('answer');
    expect(reply.text).toContain('push it again');
    expect(reply.text).not.toContain('wren restore');
  });

  it('keeps the reading as written where it answers on its own', async () => {
    const { ask } = await pipelineSession('wren.md', GUIDE);
    ask('How do I delete a remote branch?');
    const reply = ask('How do I rename the current branch?');
    expect(reply.confidence.level).toBe('answer');
    expect(reply.text).toContain('wren branch --move');
  });
});

/** A how-to answered in prose in one place, with its example in another section. */
const PLUGINS = `# Wren plugins

## Plugin options

### The prefix option

If an option with the key \`prefix\` and a \`string\` value is passed to register, Wren will use it to prefix all the routes inside the plugin.

## Route files

### Prefixed route files

To give every route of a file one prefix, wrap them in a plugin and pass the prefix when you register it:

\`\`\`js
app.register(require('./routes/users'), { prefix: '/v1' })
\`\`\`

## Closing

Call app.close() to stop.
`;

describe('"show me an example" where the earlier answer has no code near it', () => {
  it('shows a code block on the earlier topic, not prose again', async () => {
    const { ask } = await pipelineSession('plugins.md', PLUGINS);
    const first = ask('What does the prefix option passed to register do?');
    expect(first.text).toContain('Wren will use it to prefix all the routes');
    expect(first.text).not.toContain('```');
    const reply = ask('Show me an example');
    expect(reply.text).toContain("app.register(require('./routes/users'), { prefix: '/v1' })");
  });
});

/** A matcher's docs that never say "turn": what the reader asks for is named in another unit. */
const MATCHER = `# Wrenglob

## Pattern syntax

- An asterisk matches everything except slashes and hidden files, whose names start with a dot.
- A question mark matches one character.

## Options

### dot

Allow patterns to match entries whose names start with a dot. Default: false.

### unique

Return only unique results. Default: true.
`;

describe('a follow-up none of whose own words was ever taught', () => {
  it('is not answered again with the unit the reader was just shown', async () => {
    const { ask } = await pipelineSession('wrenglob.md', MATCHER);
    const first = ask('Does it match files whose names start with a dot?');
    expect(first.text).toContain('An asterisk matches everything');
    const reply = ask('How do I turn that on?');
    expect(reply.confidence.level).not.toBe('none');
    expect(reply.text).toContain('Allow patterns to match entries whose names start with a dot');
  });
});
