import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { chatCompletionsHandlers, modelsHandlers, openAIErrorResponse } from '../../lib/openai/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';
import { type OpenAIStandin, standinReply, startOpenAIStandin } from '../support/openai-standin.js';
import { postJson, redisServices } from '../support/services.js';
import { readEvents } from '../support/sse.js';
import { solidImage } from '../vision/images.js';

const URL = 'http://127.0.0.1/api/v1/chat/completions';
const MODELS_URL = 'http://127.0.0.1/api/v1/models';
const API_KEY = 'test-api-key-0123456789abcdef';

let addressCounter = 0;
const freshAddress = () => `10.88.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

async function trained(env: Record<string, string> = {}): Promise<Services> {
  // The tests stand in for a proxy that sets X-Real-IP, so each has an address of its own.
  const services = await redisServices(
    { TRUST_PROXY_HEADER: 'x-real-ip', ...env },
    { random: mulberry32(17) },
  );
  await services.model.train(SMALL_CORPUS);
  return services;
}

const completions = (services: Services): Endpoint =>
  endpoint(
    chatCompletionsHandlers(() => services),
    { renderError: openAIErrorResponse, allowRequestedHeaders: true },
  );
const models = (services: Services): Endpoint =>
  endpoint(
    modelsHandlers(() => services),
    { renderError: openAIErrorResponse },
  );

function ask(body: unknown, headers: Record<string, string> = {}): Request {
  return postJson(URL, body, { 'x-real-ip': freshAddress(), ...headers });
}

const hello = (extra: Record<string, unknown> = {}) => ({
  model: 'local-instant',
  messages: [{ role: 'user', content: 'Tell me of wisdom and light' }],
  ...extra,
});

describe('POST /api/v1/chat/completions: the Chat Completions wire format', () => {
  let api: Endpoint;
  beforeAll(async () => {
    api = completions(await trained());
  });

  it('answers a chat.completion with id, created, model, one choice, usage and sources', async () => {
    const response = await api.fetch(ask(hello()));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-[0-9a-f]{32}$/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'local-instant',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: expect.any(String) },
          finish_reason: expect.stringMatching(/^(stop|length)$/),
        },
      ],
      sources: expect.any(Array),
    });
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(60);
    expect(body.choices[0].message.content.length).toBeGreaterThan(0);
    const { prompt_tokens, completion_tokens, total_tokens } = body.usage;
    expect(prompt_tokens).toBe(6);
    expect(completion_tokens).toBeGreaterThan(0);
    expect(total_tokens).toBe(prompt_tokens + completion_tokens);
  });

  it.each(['local-instant', 'local-expert', 'local-apex'])('answers with the model %s', async (model) => {
    const body = await (await api.fetch(ask(hello({ model })))).json();
    expect(body.model).toBe(model);
  });

  it('accepts content as an array of text parts and system messages', async () => {
    const response = await api.fetch(
      ask({
        model: 'local-expert',
        messages: [
          { role: 'system', content: 'You are terse.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Tell me' },
              { type: 'text', text: 'of the sea' },
            ],
          },
        ],
      }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).usage.prompt_tokens).toBe(9);
  });

  it('says finish_reason "length" when the reply fills max_tokens', async () => {
    const body = await (await api.fetch(ask(hello({ max_tokens: 1 })))).json();
    expect(body.usage.completion_tokens).toBeGreaterThanOrEqual(1);
    expect(body.choices[0].finish_reason).toBe('length');
  });

  it('accepts OpenAI ranges beyond ours: temperature up to 2 and large token limits', async () => {
    const response = await api.fetch(ask(hello({ temperature: 1.8, max_completion_tokens: 4096 })));
    expect(response.status).toBe(200);
  });

  it('ignores fields it does not use (top_p, stop, seed ...)', async () => {
    const response = await api.fetch(ask(hello({ top_p: 0.9, stop: ['\n'], seed: 4, presence_penalty: 0 })));
    expect(response.status).toBe(200);
  });

  it.each([
    ['no messages', { model: 'local-instant', messages: [] }, 'messages'],
    ['no model', { messages: [{ role: 'user', content: 'hi' }] }, 'model'],
    ['a tool message', hello({ messages: [{ role: 'tool', content: 'x' }] }), 'messages.0.role'],
    [
      'a last message from the assistant',
      hello({ messages: [{ role: 'assistant', content: 'x' }] }),
      'messages.0.role',
    ],
    [
      'a last user message without text',
      hello({ messages: [{ role: 'user', content: '  ' }] }),
      'messages.0.content',
    ],
    ['a temperature above 2', hello({ temperature: 2.5 }), 'temperature'],
    ['a max_tokens of zero', hello({ max_tokens: 0 }), 'max_tokens'],
    ['n = 2', hello({ n: 2 }), 'n'],
    ['a non-boolean stream', hello({ stream: 'yes' }), 'stream'],
    [
      'an image by URL',
      hello({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is it' },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            ],
          },
        ],
      }),
      'messages.0.content',
    ],
  ])('answers 400 invalid_request_error with param for %s', async (_name, body, param) => {
    const response = await api.fetch(ask(body));
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toEqual({
      message: expect.stringContaining(param),
      type: 'invalid_request_error',
      param,
      code: 'validation_failed',
    });
  });

  it('answers 404 model_not_found for an unknown model, naming the ones that exist', async () => {
    const response = await api.fetch(ask(hello({ model: 'gpt-4o' })));
    expect(response.status).toBe(404);
    const { error } = await response.json();
    expect(error).toEqual({
      message: expect.stringContaining('local-instant'),
      type: 'invalid_request_error',
      param: 'model',
      code: 'model_not_found',
    });
  });

  it('answers bad JSON and a wrong media type in the OpenAI error shape', async () => {
    const broken = await api.fetch(ask('{"model":'));
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.code).toBe('invalid_json');
    const form = await api.fetch(ask('x', { 'content-type': 'text/plain' }));
    expect(form.status).toBe(415);
    expect((await form.json()).error).toMatchObject({ type: 'invalid_request_error' });
  });

  it('answers 405 in the OpenAI error shape and lets a browser preflight any requested header', async () => {
    const get = await api.fetch(new Request(URL));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await get.json()).error.code).toBe('method_not_allowed');
    const preflight = await api.fetch(
      new Request(URL, {
        method: 'OPTIONS',
        headers: { 'access-control-request-headers': 'authorization, content-type, x-stainless-os' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-stainless-os');
  });
});

describe('POST /api/v1/chat/completions: streaming', () => {
  let api: Endpoint;
  beforeAll(async () => {
    api = completions(await trained());
  });

  async function chunks(response: Response) {
    const events = await readEvents(response);
    return events.map((event) => (event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data)));
  }

  it('sends chunks with the role first, content pieces, a finish chunk with sources, and [DONE]', async () => {
    const response = await api.fetch(ask(hello({ stream: true })));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-session-limit')).toBe('20');
    const all = await chunks(response);
    expect(all.at(-1)).toBe('[DONE]');
    const objects = all.slice(0, -1);
    const ids = new Set(objects.map((chunk) => chunk.id));
    expect(ids.size).toBe(1);
    for (const chunk of objects) {
      expect(chunk).toMatchObject({
        object: 'chat.completion.chunk',
        model: 'local-instant',
        created: expect.any(Number),
      });
    }
    expect(objects[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    const last = objects.at(-1);
    expect(last.choices[0]).toMatchObject({
      delta: {},
      finish_reason: expect.stringMatching(/^(stop|length)$/),
    });
    expect(last.sources).toEqual(expect.any(Array));
    const pieces = objects.slice(1, -1).map((chunk) => chunk.choices[0].delta.content);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((piece: unknown) => typeof piece === 'string' && piece.length > 0)).toBe(true);
    expect(objects.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('adds a usage chunk with no choices before [DONE] when stream_options.include_usage is set', async () => {
    const all = await chunks(
      await api.fetch(ask(hello({ stream: true, stream_options: { include_usage: true } }))),
    );
    const usage = all.at(-2);
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toMatchObject({ prompt_tokens: 6, completion_tokens: expect.any(Number) });
    const text = all
      .slice(0, -2)
      .map((chunk) => chunk.choices[0].delta.content ?? '')
      .join('');
    expect(usage.usage.completion_tokens).toBeGreaterThan(0);
    expect(text.length).toBeGreaterThan(0);
  });

  it('keeps an error before the stream starts an ordinary JSON error', async () => {
    const response = await api.fetch(ask(hello({ model: 'nope', stream: true })));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});

describe('POST /api/v1/chat/completions: history, allowance and rate limit', () => {
  let llm: OpenAIStandin;
  let api: Endpoint;
  beforeAll(async () => {
    llm = await startOpenAIStandin();
    api = completions(
      await trained({
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'standin',
        SESSION_LIMIT_FREE: '2',
        RATE_LIMIT_REQUESTS: '4',
      }),
    );
  });
  afterAll(() => llm.close());

  it('takes the history from messages, not from a stored session (stateless)', async () => {
    const response = await api.fetch(
      ask({
        model: 'local-apex',
        user: 'history-user',
        messages: [
          { role: 'system', content: 'Be kind.' },
          { role: 'user', content: 'earlier question' },
          { role: 'assistant', content: 'earlier answer' },
          { role: 'user', content: 'Hello there' },
        ],
      }),
    );
    const body = await response.json();
    expect(body.choices[0].message.content).toBe(standinReply('Hello there'));
    const sent = JSON.stringify(llm.requests.at(-1)!.body.messages);
    expect(sent).toContain('earlier question');
    expect(sent).toContain('earlier answer');
  });

  it('passes an image_url data: URL on the last user message on as the chat image', async () => {
    const png = await solidImage('png', 24, 16, '#3366cc');
    const response = await api.fetch(
      ask({
        model: 'local-apex',
        user: 'image-user',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
            ],
          },
        ],
      }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.choices[0].message.content).toBe(standinReply('What is in this picture?', 'image/png'));
  });

  it('streams the external model in local-apex', async () => {
    const response = await api.fetch(ask(hello({ model: 'local-apex', stream: true, user: 'streamer' })));
    const events = await readEvents(response);
    const text = events
      .filter((event) => event.data !== '[DONE]')
      .map((event) => JSON.parse(event.data).choices[0]?.delta.content ?? '')
      .join('');
    expect(text).toBe(standinReply('Tell me of wisdom and light'));
  });

  it('counts the allowance on a session of the user and answers 429 insufficient_quota when spent', async () => {
    const address = freshAddress();
    const send = (user: string) => api.fetch(ask(hello({ user }), { 'x-real-ip': address }));
    expect((await send('alice')).status).toBe(200);
    const second = await send('alice');
    expect(second.headers.get('x-session-remaining')).toBe('0');
    const third = await send('alice');
    expect(third.status).toBe(429);
    expect((await third.json()).error).toMatchObject({ type: 'insufficient_quota', code: 'session_limit' });
    expect((await send('bob')).status).toBe(200);
  });

  it('applies the IP rate limit, answering 429 rate_limit_exceeded with Retry-After', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await api.fetch(ask(hello({ user: `r${i}` }), { 'x-real-ip': address }));
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await last!.json()).error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
  });
});

describe('/api/v1: API key and sign-in', () => {
  let oidc: OidcStandin;
  let keyed: Services;
  let open: Services;
  beforeAll(async () => {
    oidc = await startOidcStandin({ audience: 'chat-app' });
    const signIn = { OIDC_ISSUER: oidc.issuer, OIDC_AUDIENCE: 'chat-app' };
    keyed = await trained({ API_KEY, ...signIn });
    open = await trained(signIn);
  });
  afterAll(() => oidc.close());

  it('with API_KEY set, refuses a request without the key with 401 invalid_api_key', async () => {
    const response = await completions(keyed).fetch(ask(hello()));
    expect(response.status).toBe(401);
    expect((await response.json()).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    });
  });

  it('with API_KEY set, refuses a wrong key and accepts the right one, on both endpoints', async () => {
    const wrong = await completions(keyed).fetch(ask(hello(), { authorization: 'Bearer not-the-key' }));
    expect(wrong.status).toBe(401);
    const right = await completions(keyed).fetch(ask(hello(), { authorization: `Bearer ${API_KEY}` }));
    expect(right.status).toBe(200);
    expect(right.headers.get('x-session-limit')).toBe('20');
    expect((await models(keyed).fetch(new Request(MODELS_URL))).status).toBe(401);
    const list = await models(keyed).fetch(
      new Request(MODELS_URL, { headers: { authorization: `Bearer ${API_KEY}` } }),
    );
    expect(list.status).toBe(200);
  });

  it('with API_KEY set, also accepts a valid sign-in token, with the signed-in allowance', async () => {
    const token = await oidc.mintToken({ sub: 'user-9' });
    const response = await completions(keyed).fetch(ask(hello(), { authorization: `Bearer ${token}` }));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-session-limit')).toBe('50');
  });

  it('without API_KEY, ignores a placeholder key and checks a JWT-shaped bearer as a sign-in token', async () => {
    const placeholder = await completions(open).fetch(
      ask(hello(), { authorization: 'Bearer sk-no-key-needed' }),
    );
    expect(placeholder.status).toBe(200);
    const forged = await completions(open).fetch(ask(hello(), { authorization: 'Bearer aaa.bbb.ccc' }));
    expect(forged.status).toBe(401);
    expect((await forged.json()).error.code).toBe('invalid_api_key');
    const token = await oidc.mintToken({ sub: 'user-10' });
    const signed = await completions(open).fetch(ask(hello(), { authorization: `Bearer ${token}` }));
    expect(signed.headers.get('x-session-limit')).toBe('50');
  });
});

describe('GET /api/v1/models', () => {
  it('lists the three modes as models in the OpenAI list format', async () => {
    const response = await models(await trained()).fetch(new Request(MODELS_URL));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      object: 'list',
      data: ['local-instant', 'local-expert', 'local-apex'].map((id) => ({
        id,
        object: 'model',
        created: expect.any(Number),
        owned_by: 'ngram-chat-backend',
      })),
    });
  });
});
