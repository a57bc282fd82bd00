import { describe, expect, it } from 'vitest';
import { pipelineSession } from '../support/pipeline.js';

/** A reference page whose section on a feature describes it before it says what to type. */
const PAGE = `# Wren reference

## Tracing

### Enable Tracing

A server started without it cannot have it enabled later on. Enable it by passing \`{ spans: true }\` when creating a Wren server.

Wren writes its traces as JSON lines, one line per request.

## Routes

A route maps a method and a path to a handler.

## Plugins

A plugin adds routes and hooks to a server.
`;

describe('the answering sentence of a "how do I" question', () => {
  it('is the one that says what to type, ahead of sentences that describe the behaviour', async () => {
    const { ask } = await pipelineSession('wren.md', PAGE);
    const reply = ask('How do I enable tracing?');
    expect(reply.confidence.level).toBe('answer');
    expect(reply.text).toMatch(/^Enable it by passing `\{ spans: true \}`/);
  });
});
