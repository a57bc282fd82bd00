import { beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { chatCompletionsHandlers, openAIErrorResponse } from '../../lib/openai/index.js';
import type { Services } from '../../lib/services/index.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { embeddedServices, postJson, redisServices } from '../support/services.js';

/** A small text of families and places, one sentence a line as many texts are written. */
const STORY = [
  'Marla Quist was the mother in law of Ondine.',
  'Marla Quist came from the town of Veldhaven, on the northern coast.',
  'The husband of Marla Quist was Tobin Quist, a lighthouse keeper.',
  'Tobin Quist kept the lighthouse because the harbour of Veldhaven had no other light.',
  'Every winter the lighthouse burned whale oil.',
  'The harbour froze in the coldest years, and the boats stayed ashore until spring.',
].join('\n');

type Turn = { role: 'user' | 'assistant'; content: string };

describe('follow-ups in a conversation', () => {
  let services: Services;
  let chatA: Endpoint;
  let chatB: Endpoint;
  let completions: Endpoint;
  beforeAll(async () => {
    services = await redisServices();
    await services.model.train(STORY);
    chatA = endpoint(chatHandlers(() => services));
    chatB = endpoint(variantBChatHandlers(() => services));
    completions = endpoint(
      chatCompletionsHandlers(() => services),
      { renderError: openAIErrorResponse },
    );
  });

  const questions = [
    "Who was Ondine's mother in law?",
    'Where did she come from?',
    'And her husband?',
    'Why?',
  ];

  function expectConversation(replies: { text: string; thought?: string }[]): void {
    expect(replies[0].text).toMatch(/^Marla Quist\./);
    expect(replies[1].text).toMatch(/Veldhaven/);
    expect(replies[2].text).toMatch(/Tobin/);
    expect(replies[3].text).toMatch(/because the harbour/);
  }

  it('rewrites a pronoun, an ellipsis and "why?" in a Variant A session (server-side history)', async () => {
    const replies: { text: string; thought?: string }[] = [];
    for (const message of questions) {
      const response = await chatA.fetch(
        postJson('http://localhost/api/chat', {
          message,
          sessionId: 'family',
          raw: true,
          modelMode: 'expert',
        }),
      );
      expect(response.status).toBe(200);
      const body = await response.json();
      replies.push({ text: body.response, thought: body.thought });
    }
    expectConversation(replies);
    expect(replies[1].thought).toContain('read as: "Where did Marla Quist come from?"');
  });

  it('does the same from Variant B history', async () => {
    const history: Turn[] = [];
    const replies: { text: string }[] = [];
    for (const message of questions) {
      const response = await chatB.fetch(postJson('http://localhost/api/api/chat', { message, history }));
      expect(response.status).toBe(200);
      const body = await response.json();
      replies.push({ text: body.response });
      history.push({ role: 'user', content: message }, { role: 'assistant', content: body.response });
    }
    expectConversation(replies);
  });

  it('does the same from /api/v1 messages', async () => {
    const messages: Turn[] = [];
    const replies: { text: string }[] = [];
    for (const message of questions) {
      messages.push({ role: 'user', content: message });
      const response = await completions.fetch(
        postJson('http://localhost/api/v1/chat/completions', { model: 'local-expert', messages }),
      );
      expect(response.status).toBe(200);
      const body = await response.json();
      const text = body.choices[0].message.content as string;
      replies.push({ text });
      messages.push({ role: 'assistant', content: text });
    }
    expectConversation(replies);
  });

  it('continues from the previous answer on "tell me more", never with made-up text', async () => {
    const local = embeddedServices();
    await local.model.train(STORY);
    const api = endpoint(chatHandlers(() => local));
    const ask = async (message: string) =>
      (
        await api.fetch(postJson('http://localhost/api/chat', { message, sessionId: 'more', raw: true }))
      ).json();
    await ask('Who kept the lighthouse?');
    const more = await ask('Tell me more');
    expect(more.response).toMatch(/whale oil/);
    expect(more.thought).toContain('continued after the previous answer');
    expect(more.sources.length).toBeGreaterThan(0);
  });

  it('leaves a question that names its own subject as it is', async () => {
    const local = embeddedServices();
    await local.model.train(STORY);
    const api = endpoint(chatHandlers(() => local));
    const ask = async (message: string) =>
      (
        await api.fetch(postJson('http://localhost/api/chat', { message, sessionId: 'own', raw: true }))
      ).json();
    await ask('Who was the husband of Marla Quist?');
    const next = await ask('What did the lighthouse burn every winter?');
    expect(next.thought).not.toContain('read as');
    expect(next.response).toMatch(/whale oil/);
  });
});
