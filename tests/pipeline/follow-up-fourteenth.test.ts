import { describe, expect, it } from 'vitest';
import { resolveFollowUp } from '../../lib/pipeline/understand/follow-up.js';
import { historyOf, pipelineSession } from '../support/pipeline.js';

const EARLIER = 'How do I turn on request logging in the server?';

describe('words that take their other term from what was just said', () => {
  it('lean on the conversation: "instead", "the same" as a pro-form, a comparative without "than"', () => {
    const history = historyOf(EARLIER);
    for (const message of [
      'Can I pass my own serializer instead?',
      'Does the same hold for the client?',
      'The same for errors?',
      'Is there a shorter way?',
      'Which is faster?',
    ]) {
      const resolved = resolveFollowUp(message, history);
      expect(resolved.kind, message).not.toBe('none');
      expect(`${resolved.question} ${resolved.carried}`, message).toMatch(/request logging/);
    }
  });

  it('leave alone what compares or replaces within its own clause', () => {
    const history = historyOf(EARLIER);
    for (const message of [
      'Can two routes have the same path?',
      'How do I make the server faster?',
      'Is there a faster way than a full restart to reload the routes?',
      'Can I use plain objects instead of schemas for validation?',
    ]) {
      // Not read as a pro-form: at most leaning tentatively, by a noun it repeats ("the server").
      const read = resolveFollowUp(message, history);
      expect(read.kind === 'none' || read.tentative === true, message).toBe(true);
    }
  });

  it('reads "explain" and "more details" as asking for more of the same place', () => {
    const history = historyOf(EARLIER);
    for (const message of ['Explain.', 'Can you explain that?', 'More details please', 'Elaborate'])
      expect(resolveFollowUp(message, history).kind, message).toBe('more');
  });

  it('answers a comparative follow-up from the earlier topic through the pipeline', async () => {
    const { ask } = await pipelineSession(
      'pond.md',
      `# Pond server manual

## Request logging

Request logging is turned on with the log_requests setting in pond.conf.

A shorter way is the --log flag on the command line, which needs no edit of pond.conf.

## Users

Several users can read a Pond database together, but only one can write.

## Backups

The backup command copies a database while it is in use, which is the shorter way to a safe copy.
`,
    );
    ask('How do I turn on request logging?');
    const reply = ask('Is there a shorter way?');
    expect(reply.readAs).toBeDefined();
    expect(reply.text).toMatch(/--log/);
  });
});

describe('"show me an example" where the section gives its example under a heading of its own', () => {
  const MANUAL = `# Pond server manual

## Request logging

### Enable request logging

Request logging is off by default. Turn it on with the log_requests setting when the server starts.

#### Basic setup

The following turns it on for every route:

\`\`\`js
const pond = createPond({ log_requests: true })
\`\`\`

### Log files

Logs are written to pond.log in the working directory.

## Upgrading

Servers before version 2 enable request logging with a command-line flag:

\`\`\`sh
pond --enable-request-logging
\`\`\`
`;

  it('shows the code of the subsection right under the earlier answer', async () => {
    const { ask } = await pipelineSession('pond.md', MANUAL);
    expect(ask('How do I turn on request logging when the server starts?').text).toMatch(
      /log_requests setting/,
    );
    const reply = ask('Show me an example');
    expect(reply.text).toContain('createPond({ log_requests: true })');
    expect(reply.text).not.toContain('--enable-request-logging');
  });
});

describe('"why?" and what follows it', () => {
  const QUIRKS = `# Pond quirks

## Strict checks are off by default

Pond has parsed check constraints for a long time, but added the ability to enforce them much later. To avoid breaking older databases, strict checks are turned off by default in Pond.

## Columns can hold any value

Because Pond is forgiving with regard to types, a column can hold a value of any type.

## Turning strict checks on

Strict checks are turned on with the strict_checks pragma:

\`\`\`sql
PRAGMA strict_checks = ON;
\`\`\`
`;

  it('finds the reason in the section of the earlier answer, not in the next one', async () => {
    const { ask } = await pipelineSession('quirks.md', QUIRKS);
    ask('Are strict checks on by default?');
    const reply = ask('Why not?');
    expect(reply.text).toMatch(/^To avoid breaking older databases/);
  });

  it('keeps the topic of the question "why?" asked about for the turn after it', async () => {
    const { ask } = await pipelineSession('quirks.md', QUIRKS);
    ask('Are strict checks on by default?');
    ask('Why not?');
    const reply = ask('Show me an example');
    expect(reply.text).not.toMatch(/not sure what you mean/);
    expect(reply.thought).toMatch(/strict checks/);
  });
});

describe('a fragment opened by "any" or "some"', () => {
  it('is read as asking whether such things exist', () => {
    const resolved = resolveFollowUp('Any downsides?', historyOf(EARLIER));
    expect(resolved.kind).toBe('ellipsis');
    expect(resolved.question).toBe('Are there any downsides?');
  });
});
