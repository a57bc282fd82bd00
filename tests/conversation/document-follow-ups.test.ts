import { beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { chatCompletionsHandlers, openAIErrorResponse } from '../../lib/openai/index.js';
import type { Services } from '../../lib/services/index.js';
import { uiChatHandlers } from '../../lib/ui-chat/index.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { embeddedServices, postJson } from '../support/services.js';

/** Documentation written as a client library's README is: options under headings, a how-to with its command. */
const GUIDE = `# fetchkit

## Options

### timeout (Number)

How long a request may take, in milliseconds, before it is abandoned. Defaults to 10000.

### retries (Number)

How many times a failed request is tried again. Defaults to 2.

## Proxies

Requests go through the proxy named in HTTPS_PROXY. To bypass the proxy for a host, list it in NO_PROXY.

For example, to reach one internal host directly:

\`\`\`bash
export NO_PROXY=internal.example.com
\`\`\`

## Caching

Responses are cached in memory for 60 seconds because most servers send the same answer twice in a row.
`;

type Turn = { role: 'user' | 'assistant'; content: string };
type Ask = (message: string) => Promise<{ text: string; thought?: string; sources: unknown[] }>;

/** One conversation per way in: each keeps its own history the way its clients do. */
function waysIn(services: Services): Record<string, () => Ask> {
  const chatA = endpoint(chatHandlers(() => services));
  const chatB = endpoint(variantBChatHandlers(() => services));
  const v1 = endpoint(
    chatCompletionsHandlers(() => services),
    { renderError: openAIErrorResponse },
  );
  const ui = endpoint(uiChatHandlers(() => services));
  return {
    'Variant A session': () => {
      const sessionId = `s-${Math.random().toString(36).slice(2)}`;
      return async (message) => {
        const body = await (
          await chatA.fetch(postJson('http://localhost/api/chat', { message, sessionId, raw: true }))
        ).json();
        return { text: body.response, thought: body.thought, sources: body.sources };
      };
    },
    'Variant B history': () => {
      const history: Turn[] = [];
      return async (message) => {
        const body = await (
          await chatB.fetch(postJson('http://localhost/api/api/chat', { message, history }))
        ).json();
        history.push({ role: 'user', content: message }, { role: 'assistant', content: body.response });
        return { text: body.response, thought: body.thought, sources: body.sources };
      };
    },
    '/api/v1 messages': () => {
      const messages: Turn[] = [];
      return async (message) => {
        messages.push({ role: 'user', content: message });
        const body = await (
          await v1.fetch(
            postJson('http://localhost/api/v1/chat/completions', { model: 'local-expert', messages }),
          )
        ).json();
        const text = body.choices[0].message.content as string;
        messages.push({ role: 'assistant', content: text });
        return { text, sources: body.sources };
      };
    },
    '/api/ui/chat messages': () => {
      const messages: { id: string; role: string; parts: { type: 'text'; text: string }[] }[] = [];
      return async (message) => {
        messages.push({ id: `u${messages.length}`, role: 'user', parts: [{ type: 'text', text: message }] });
        const response = await ui.fetch(postJson('http://localhost/api/ui/chat', { id: 'c', messages }));
        const chunks = (await response.text())
          .split('\n')
          .filter((line) => line.startsWith('data: ') && !line.includes('[DONE]'))
          .map((line) => JSON.parse(line.slice(6)));
        const text = chunks
          .filter((chunk) => chunk.type === 'text-delta')
          .map((chunk) => chunk.delta)
          .join('');
        const finish = chunks.find((chunk) => chunk.type === 'finish');
        messages.push({ id: `a${messages.length}`, role: 'assistant', parts: [{ type: 'text', text }] });
        return {
          text,
          thought: finish?.messageMetadata?.thought,
          sources: chunks.filter((chunk) => chunk.type === 'source-document'),
        };
      };
    },
  };
}

describe('follow-ups on documents, on every way in', () => {
  let services: Services;
  beforeAll(async () => {
    services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'fetchkit.md', text: GUIDE });
  });

  for (const way of ['Variant A session', 'Variant B history', '/api/v1 messages', '/api/ui/chat messages']) {
    describe(way, () => {
      const ask = () => waysIn(services)[way]();

      it('reads "what about X?" as the earlier question asked of X', async () => {
        const chat = ask();
        expect((await chat('What is the default timeout?')).text).toMatch(/10000/);
        const next = await chat('What about retries?');
        expect(next.text).toMatch(/retries`?: Defaults to 2/);
      });

      it('answers "show me an example" with the example beside the earlier answer', async () => {
        const chat = ask();
        expect((await chat('How do I bypass the proxy for a host?')).text).toMatch(/NO_PROXY/);
        const example = await chat('Show me an example');
        expect(example.text).toContain('export NO_PROXY=internal.example.com');
      });

      it('answers "why?" from the reason near the earlier answer', async () => {
        const chat = ask();
        expect((await chat('How long are responses cached?')).text).toMatch(/60 seconds/);
        expect((await chat('Why?')).text).toMatch(/because most servers send the same answer/);
      });

      it('answers small talk inside the conversation with no sources and nothing from the documents', async () => {
        const chat = ask();
        await chat('What is the default timeout?');
        const thanks = await chat('thanks!');
        expect(thanks.sources).toEqual([]);
        expect(thanks.text).not.toMatch(/request|timeout|proxy/i);
      });

      it('leaves a question that stands on its own as it is, answered as if fresh', async () => {
        const chat = ask();
        await chat('How do I bypass the proxy for a host?');
        const fresh = await ask()('How many times is a failed request tried again?');
        const after = await chat('How many times is a failed request tried again?');
        expect(after.text).toBe(fresh.text);
      });
    });
  }

  it('says how a follow-up was read in thought, outside the reply (Variant A and B)', async () => {
    for (const way of ['Variant A session', 'Variant B history']) {
      const chat = waysIn(services)[way]();
      await chat('What is the default timeout?');
      const next = await chat('What about retries?');
      expect(next.thought).toMatch(/^read as: /);
      expect(next.thought).toMatch(/leaning on turn 1/);
      expect(next.text).not.toMatch(/read as/);
    }
  });
});

describe('what the earlier answer quoted is not said again, on every way in', () => {
  /** How to hold a package, what a hold does, how to release one; nothing says "undo". */
  const PACKAGES = `# pkgtool

## Holding packages

To keep a package at its installed version, run pkgtool hold with the package name.

A held package stays at its installed version when the rest of the system is upgraded, and pkgtool upgrade lists it as kept back.

## Releasing a hold

A held package can be released: run pkgtool unhold with the package name, and the next upgrade installs its new version.
`;
  let services: Services;
  beforeAll(async () => {
    services = embeddedServices({}, { random: () => 0.5 });
    await services.model.train({ format: 'markdown', name: 'pkgtool.md', text: PACKAGES });
  });

  for (const way of ['Variant A session', 'Variant B history', '/api/v1 messages', '/api/ui/chat messages']) {
    it(`${way}: "and how do I undo that?" restates neither unit the earlier answer quoted`, async () => {
      const chat = waysIn(services)[way]();
      const first = await chat('How do I keep a package at its installed version?');
      expect(first.text).toMatch(/pkgtool hold/);
      expect(first.text).toMatch(/stays at its installed version/);
      const next = await chat('And how do I undo that?');
      expect(next.text).not.toMatch(/pkgtool hold with/);
      expect(next.text).not.toMatch(/stays at its installed version/);
    });
  }
});
