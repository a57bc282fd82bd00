import { describe, expect, it } from 'vitest';
import { withinLimitWhole } from '../../lib/pipeline/extract/index.js';
import { countTokens } from '../../lib/text/index.js';
import { pipelineSession } from '../support/pipeline.js';

/** A how-to whose example is longer than a reply of 80 tokens can show. */
const GUIDE = `# Wren server guide

## Mounting routes under a prefix

To mount every route of a module under one prefix, register it with the prefix option:

\`\`\`js
const wren = require('wren')
const routes = require('./routes')
const app = wren({ logger: { level: 'info', redact: ['req.headers.authorization'] } })
app.register(routes, { prefix: '/v1', strict: true, trailingSlash: 'ignore' })
app.register(require('./admin'), { prefix: '/admin', strict: true, trailingSlash: 'ignore' })
app.listen({ port: 3000, host: '127.0.0.1', backlog: 511, exclusive: false })
\`\`\`

## Closing the server

Call app.close() to stop accepting connections.
`;

describe('a code block the length limit cannot show whole', () => {
  it('keeps whole lines of the block, closed, with "…" for the rest', async () => {
    const { ask } = await pipelineSession('guide.md', GUIDE);
    const reply = ask('How do I mount every route of a module under a prefix?');
    expect(reply.confidence.level).toBe('answer');
    expect(countTokens(reply.text)).toBeLessThanOrEqual(80);
    const block = /```js\n([\s\S]*?)\n```/.exec(reply.text);
    expect(block).not.toBeNull();
    const lines = block![1].split('\n');
    expect(lines.at(-1)).toBe('…');
    for (const line of lines.slice(0, -1)) expect(GUIDE.split('\n')).toContain(line);
    expect(lines[0]).toBe("const wren = require('wren')");
  });
});

describe('withinLimitWhole', () => {
  const snippet = {
    text: 'Run this:\n\n```\nfirst line here\nsecond line here\nthird line here\n```',
    block: true,
  };

  it('leaves a snippet that fits as it is', () => {
    expect(withinLimitWhole(snippet, 100)).toBe(snippet);
  });

  it('cuts the block at a whole line and closes it', () => {
    const cut = withinLimitWhole(snippet, 16);
    expect(cut.text).toBe('Run this:\n\n```\nfirst line here\n…\n```');
    expect(countTokens(`${cut.text} [1]`)).toBeLessThanOrEqual(16);
  });

  it('leaves it to the final cut where not even the first line fits, or there is no block', () => {
    expect(withinLimitWhole(snippet, 8)).toBe(snippet);
    const prose = { text: 'A sentence that is much too long for the limit given here.', block: false };
    expect(withinLimitWhole(prose, 5)).toBe(prose);
  });
});
