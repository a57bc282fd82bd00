import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  readUIMessageStream,
  type UIMessage,
} from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { upstashStore } from '../../lib/store/index.js';
import { uiChatHandlers } from '../../lib/ui-chat/index.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';
import { freePort } from '../support/redis-server.js';
import { postJson, redisServices } from '../support/services.js';
import { readEvents } from '../support/sse.js';

const URL = 'http://127.0.0.1/api/ui/chat';

let addressCounter = 0;
const freshAddress = () => `10.66.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

async function trained(env: Record<string, string> = {}, services?: Partial<Services>): Promise<Services> {
  const result = await redisServices(
    { TRUST_PROXY_HEADER: 'x-real-ip', ...env },
    { random: mulberry32(5), ...services },
  );
  await result.model.train(SMALL_CORPUS);
  return result;
}

const uiChat = (services: Services): Endpoint =>
  endpoint(
    uiChatHandlers(() => services),
    { allowRequestedHeaders: true },
  );

/** A fetch for the AI SDK's client that reaches the endpoint in process, from one client address. */
function fetchFor(
  api: Endpoint,
  address = freshAddress(),
  headers: Record<string, string> = {},
): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const merged = new Headers(request.headers);
    merged.set('x-real-ip', address);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return api.fetch(new Request(request, { headers: merged }));
  }) as typeof fetch;
}

/** The smallest ChatState: what `useChat` keeps in React state, kept in an array. */
class ArrayChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((existing, at) => (at === index ? message : existing));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** AbstractChat as `useChat` drives it, over `DefaultChatTransport`. */
class TestChat extends AbstractChat<UIMessage> {
  readonly chatState: ArrayChatState;
  constructor(options: { id?: string; fetch: typeof fetch; body?: object }) {
    const state = new ArrayChatState();
    super({
      id: options.id,
      state,
      transport: new DefaultChatTransport({ api: URL, fetch: options.fetch, body: options.body }),
    });
    this.chatState = state;
  }
}

const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');

function userMessage(text: string, id = `u-${Math.random().toString(36).slice(2)}`): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

describe('POST /api/ui/chat: the AI SDK UI message stream', () => {
  let api: Endpoint;
  beforeAll(async () => {
    api = uiChat(await trained());
  });

  it('streams start, the text in deltas, text-end, a source-document per source, finish and [DONE]', async () => {
    const response = await api.fetch(
      postJson(
        URL,
        {
          id: 'chat-wire',
          messages: [userMessage('What is better than rubies?')],
          trigger: 'submit-message',
        },
        { 'x-real-ip': freshAddress() },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-session-remaining')).toBe('19');
    const events = await readEvents(response);
    expect(events.every((event) => event.event === 'message')).toBe(true);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    const types = chunks.map((chunk) => chunk.type);
    expect(types[0]).toBe('start');
    expect(types[1]).toBe('text-start');
    const ends = types.indexOf('text-end');
    expect(types.slice(2, ends).every((type) => type === 'text-delta')).toBe(true);
    expect(ends).toBeGreaterThan(2);
    expect(types.slice(ends + 1, -1).every((type) => type === 'source-document')).toBe(true);
    expect(types.at(-1)).toBe('finish');
    const text = chunks
      .filter((chunk) => chunk.type === 'text-delta')
      .map((chunk) => chunk.delta)
      .join('');
    expect(text).toMatch(/Wisdom is better than rubies/);
    const documents = chunks.filter((chunk) => chunk.type === 'source-document');
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({
      sourceId: 'source-1',
      mediaType: 'text/plain',
      title: 'chunk 1, line 2',
      providerMetadata: {
        ngram: { n: 1, text: expect.stringMatching(/Wisdom/), ref: { chunk: 1, line: 2 } },
      },
    });
    expect(chunks.at(-1)).toMatchObject({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { usedExternal: false },
    });
  });

  it('builds the assistant message with the ai package: text, citations and source-document parts', async () => {
    const transport = new DefaultChatTransport<UIMessage>({ api: URL, fetch: fetchFor(api) });
    const stream = await transport.sendMessages({
      chatId: 'chat-read',
      messages: [userMessage('What is better than rubies?')],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream })) last = message;
    expect(last?.role).toBe('assistant');
    expect(textOf(last)).toMatch(/Wisdom is better than rubies.*\[1\]/);
    const textPart = last!.parts.find((part) => part.type === 'text');
    expect(textPart).toMatchObject({
      state: 'done',
      citations: [
        { source: { sourceType: 'document', title: 'chunk 1, line 2' }, citedText: expect.any(String) },
      ],
    });
    expect(last!.parts.filter((part) => part.type === 'source-document')).toEqual([
      expect.objectContaining({ type: 'source-document', sourceId: 'source-1', title: 'chunk 1, line 2' }),
    ]);
  });

  it('carries a conversation through AbstractChat (as useChat does), follow-ups and regenerate included', async () => {
    const chat = new TestChat({ id: 'chat-abstract', fetch: fetchFor(api) });
    await chat.sendMessage({ text: 'Tell me about wisdom and rubies' });
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(textOf(chat.messages[1])).toMatch(/rubies/);

    await chat.sendMessage({ text: 'What about the sea?' });
    expect(chat.messages).toHaveLength(4);
    expect(textOf(chat.messages[3])).toMatch(/sea/);

    const before = chat.messages[3]!.id;
    await chat.regenerate();
    expect(chat.messages).toHaveLength(4);
    expect(chat.messages[3]!.id).not.toBe(before);
    expect(textOf(chat.messages[3])).toMatch(/sea/);
    expect(chat.error).toBeUndefined();
  });

  it('uses the messages sent as the history, as Variant B uses history', async () => {
    const ask = (messages: UIMessage[]) =>
      api.fetch(postJson(URL, { id: `history-${Math.random()}`, messages }, { 'x-real-ip': freshAddress() }));
    const alone = await readEvents(await ask([userMessage('Tell me more')]));
    const followUp = await readEvents(
      await ask([
        userMessage('What is a good name better than?'),
        {
          id: 'a1',
          role: 'assistant',
          parts: [{ type: 'text', text: 'A good name is better than precious ointment. [1]' }],
        },
        userMessage('Tell me more'),
      ]),
    );
    const sources = (events: typeof alone) =>
      events.map((event) => event.data).filter((data) => data.includes('"source-document"'));
    expect(sources(alone)).toEqual([]);
    expect(sources(followUp).length).toBeGreaterThan(0);
  });

  it('accepts the chat options a transport body adds (modelMode, temperature, maxTokens)', async () => {
    const chat = new TestChat({
      fetch: fetchFor(api),
      body: { modelMode: 'instant', temperature: 0.2, maxTokens: 40 },
    });
    await chat.sendMessage({ text: 'Where do the ships go?' });
    expect(textOf(chat.messages[1])).toMatch(/ships/);
  });
});

describe('POST /api/ui/chat: the conversation allowance', () => {
  let api: Endpoint;
  let services: Services;
  beforeAll(async () => {
    services = await trained({ SESSION_LIMIT_FREE: '2' });
    api = uiChat(services);
  });

  const send = (id: string, address: string) =>
    api.fetch(postJson(URL, { id, messages: [userMessage('light')] }, { 'x-real-ip': address }));

  it('counts a conversation id like a session, per client, and answers 429 JSON before the stream', async () => {
    const address = freshAddress();
    expect((await send('conversation-1', address)).headers.get('x-session-remaining')).toBe('1');
    expect((await send('conversation-1', address)).headers.get('x-session-remaining')).toBe('0');
    const spent = await send('conversation-1', address);
    expect(spent.status).toBe(429);
    expect(spent.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await spent.json()).toMatchObject({ code: 'session_limit', limit: 2, remaining: 0 });
    // Another client sending the same id has a conversation of its own.
    const other = await send('conversation-1', freshAddress());
    expect(other.status).toBe(200);
    expect(other.headers.get('x-session-remaining')).toBe('1');
    // The same client with a new conversation starts afresh.
    expect((await send('conversation-2', address)).status).toBe(200);
  });

  it('shows a spent allowance to the ai client as a failed call with the JSON error', async () => {
    const address = freshAddress();
    const chat = new TestChat({ id: 'spent', fetch: fetchFor(api, address) });
    await chat.sendMessage({ text: 'light' });
    await chat.sendMessage({ text: 'light' });
    await chat.sendMessage({ text: 'light' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toContain('session_limit');
  });

  it('answers 429 rate_limited with Retry-After past the rate limit per address', async () => {
    const limited = uiChat(await trained({ RATE_LIMIT_REQUESTS: '1' }));
    const address = freshAddress();
    const ask = () =>
      limited.fetch(postJson(URL, { id: 'r', messages: [userMessage('light')] }, { 'x-real-ip': address }));
    expect((await ask()).status).toBe(200);
    const second = await ask();
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await second.json()).toMatchObject({ code: 'rate_limited' });
  });
});

describe('POST /api/ui/chat: what is not a chat request', () => {
  let api: Endpoint;
  beforeAll(async () => {
    api = uiChat(await trained());
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    api.fetch(postJson(URL, body, { 'x-real-ip': freshAddress(), ...headers }));

  it.each([
    ['a Variant A body', { message: 'hello' }, 'id'],
    ['no messages', { id: 'x' }, 'messages'],
    ['empty messages', { id: 'x', messages: [] }, 'messages'],
    ['messages not an array', { id: 'x', messages: 'hello' }, 'messages'],
    [
      'a message without parts',
      { id: 'x', messages: [{ role: 'user', content: 'hello' }] },
      'messages.0.parts',
    ],
    ['an unknown role', { id: 'x', messages: [{ role: 'robot', parts: [] }] }, 'messages.0.role'],
    [
      'the assistant speaking last',
      { id: 'x', messages: [{ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hi' }] }] },
      'messages.0.role',
    ],
    [
      'a user message without text',
      { id: 'x', messages: [{ id: 'u', role: 'user', parts: [] }] },
      'messages.0.parts',
    ],
    ['an empty id', { id: '', messages: [userMessage('hi')] }, 'id'],
    ['an unknown trigger', { id: 'x', messages: [userMessage('hi')], trigger: 'explode' }, 'trigger'],
    ['a bad mode', { id: 'x', messages: [userMessage('hi')], modelMode: 'turbo' }, 'modelMode'],
    [
      'an image by URL',
      {
        id: 'x',
        messages: [
          {
            id: 'u',
            role: 'user',
            parts: [
              { type: 'text', text: 'what is this?' },
              { type: 'file', mediaType: 'image/png', url: 'https://example.com/cat.png' },
            ],
          },
        ],
      },
      'messages.0.parts',
    ],
  ])('answers 400 JSON for %s, naming the field', async (_name, body, field) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ code: 'validation_failed', field });
  });

  it('answers 400 for broken JSON, 415 for another media type, 405 with Allow for GET', async () => {
    expect((await post('{"id":')).status).toBe(400);
    const text = await api.fetch(
      new Request(URL, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }),
    );
    expect(text.status).toBe(415);
    const get = await api.fetch(new Request(URL));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers the CORS preflight of any origin, with the headers a transport may add', async () => {
    const response = await api.fetch(
      new Request(URL, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://shop.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, x-my-app',
        },
      }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, x-my-app');
  });
});

describe('POST /api/ui/chat: sign-in and a store that is down', () => {
  let oidc: OidcStandin;
  beforeAll(async () => {
    oidc = await startOidcStandin({ audience: 'ui-app' });
  });
  afterAll(() => oidc.close());

  it('gives a signed-in user the larger allowance and answers 401 to a token that does not verify', async () => {
    const api = uiChat(await trained({ OIDC_ISSUER: oidc.issuer, OIDC_AUDIENCE: 'ui-app' }));
    const good = await oidc.mintToken({ sub: 'ui-user' });
    const signed = await api.fetch(
      postJson(URL, { id: 's', messages: [userMessage('light')] }, { Authorization: `Bearer ${good}` }),
    );
    expect(signed.status).toBe(200);
    expect(signed.headers.get('x-session-limit')).toBe('50');
    const bad = await oidc.mintToken({ sub: 'ui-user' }, { expiresIn: -3600 });
    const refused = await api.fetch(
      postJson(URL, { id: 's', messages: [userMessage('light')] }, { Authorization: `Bearer ${bad}` }),
    );
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'invalid_token' });
  });

  it('answers 503 store_unavailable before the stream when the store cannot be reached', async () => {
    const port = await freePort();
    const store = upstashStore({ url: `http://127.0.0.1:${port}`, token: 'x', retries: 0 });
    const api = uiChat(await redisServices({}, { store }));
    const response = await api.fetch(postJson(URL, { id: 'down', messages: [userMessage('light')] }));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'store_unavailable' });
  });
});
