import { describe, expect, it } from 'vitest';
import { queryOf } from '../../lib/pipeline/gather.js';
import { pipelineSession } from '../support/pipeline.js';

/** A rendering guide where the alternative a question rejects is the rarest word it writes. */
const GUIDE = `# Heron rendering guide

## Rendering in the browser

The hydrate call renders the page on the client, so the markup follows every change of the data.

## Rendering ahead of time

When a page is rendered on the server, the markup for each request is built there and sent whole.

## Caching

The client keeps the pages it has fetched for a minute.

## Routing

Each page has a route of its own, matched by its path.
`;

describe('a question that rejects an alternative ("rather than", "instead of")', () => {
  it('is answered about the side it asks for, not the one it rejects', async () => {
    const { ask } = await pipelineSession('guide.md', GUIDE);
    const reply = ask('How do I render the page on the client rather than on the server?');
    expect(reply.text).toMatch(/^The hydrate call/);
  });

  it('searches the rejected words at a low weight, never as the question’s own', () => {
    const query = queryOf('How do I send the results to a file instead of the screen, every time?', '');
    expect(query.map((term) => term.word)).not.toContain('screen');
    expect(query.map((term) => term.word)).toContain('time');
    const carried = queryOf('and the errors?', 'How do I send the results to a file instead of the screen?');
    expect(carried.map((term) => term.word)).not.toContain('screen');
  });
});
