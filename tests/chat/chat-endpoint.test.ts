import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';
import { type OpenAIStandin, startOpenAIStandin } from '../support/openai-standin.js';
import { postJson, redisServices } from '../support/services.js';
import { solidImage, svgWithScript, textFile } from '../vision/images.js';

const URL = 'http://127.0.0.1/api/chat';

async function trainedServices(env: Record<string, string> = {}, overrides = {}) {
  const services = await redisServices(env, { random: mulberry32(7), ...overrides });
  await services.model.train(SMALL_CORPUS);
  return services;
}

function chat(services: Services): Endpoint {
  return endpoint(chatHandlers(() => services));
}

describe('POST /api/chat: request validation', () => {
  let api: Endpoint;
  let services: Services;
  beforeAll(async () => {
    services = await trainedServices();
    api = chat(services);
  });

  const bad: [string, unknown, string][] = [
    ['a missing message', {}, 'message'],
    ['a non-string message', { message: 42 }, 'message'],
    ['an empty message', { message: '' }, 'message'],
    ['a whitespace message', { message: '   ' }, 'message'],
    ['a message over 4000 characters', { message: 'a'.repeat(4001) }, 'message'],
    ['a sessionId with bad characters', { message: 'hi', sessionId: 'a b/c' }, 'sessionId'],
    ['a sessionId too long', { message: 'hi', sessionId: 'x'.repeat(65) }, 'sessionId'],
    ['an empty sessionId', { message: 'hi', sessionId: '' }, 'sessionId'],
    ['a numeric userId', { message: 'hi', userId: 5 }, 'userId'],
    ['an unknown modelMode', { message: 'hi', modelMode: 'turbo' }, 'modelMode'],
    ['a non-boolean raw', { message: 'hi', raw: 'yes' }, 'raw'],
    ['a temperature above 1', { message: 'hi', temperature: 1.5 }, 'temperature'],
    ['a negative temperature', { message: 'hi', temperature: -0.1 }, 'temperature'],
    ['a string temperature', { message: 'hi', temperature: '0.5' }, 'temperature'],
    ['maxTokens zero', { message: 'hi', maxTokens: 0 }, 'maxTokens'],
    ['a fractional maxTokens', { message: 'hi', maxTokens: 2.5 }, 'maxTokens'],
    ['maxTokens above the cap', { message: 'hi', maxTokens: 401 }, 'maxTokens'],
    ['a non-string imageBase64', { message: 'hi', imageBase64: 12 }, 'imageBase64'],
  ];

  it.each(bad)('answers 400 naming the field for %s', async (_name, body, field) => {
    const response = await api.fetch(postJson(URL, body, { 'x-real-ip': '10.0.0.1' }));
    expect(response.status).toBe(400);
    const error = await response.json();
    expect(error).toMatchObject({ code: 'validation_failed', field });
    expect(error.error).toContain(field);
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON body', async () => {
    expect((await api.fetch(postJson(URL, '{"message":'))).status).toBe(400);
    const text = new Request(URL, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hi' });
    expect((await api.fetch(text)).status).toBe(415);
  });

  it('does not count a rejected request against the session', async () => {
    await api.fetch(postJson(URL, { message: '', sessionId: 'uncounted' }));
    const response = await api.fetch(postJson(URL, { message: 'light', sessionId: 'uncounted' }));
    expect(response.headers.get('x-session-remaining')).toBe('19');
  });
});

describe('POST /api/chat: replies', () => {
  let services: Services;
  let api: Endpoint;
  beforeAll(async () => {
    services = await trainedServices();
    api = chat(services);
  });

  it('answers from the local model with thought, vocabulary size and usedExternal false', async () => {
    const response = await api.fetch(postJson(URL, { message: 'Tell me about the sea', sessionId: 's1' }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(typeof body.response).toBe('string');
    expect(body.response.length).toBeGreaterThan(0);
    expect(body.usedExternal).toBe(false);
    expect(body.vocabSize).toBe(await services.model.vocabSize());
    expect(body.thought).toContain('sea');
    expect(response.headers.get('x-session-limit')).toBe('20');
    expect(response.headers.get('x-session-remaining')).toBe('19');
    expect(response.headers.get('ratelimit-limit')).toBe('60');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each(['instant', 'expert', 'apex'])('works in %s mode without an external model', async (modelMode) => {
    const response = await api.fetch(
      postJson(URL, { message: 'What about wisdom?', modelMode, sessionId: `m-${modelMode}` }),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.usedExternal).toBe(false);
    expect(body.response).toContain('Wisdom is better than rubies');
    expect(body.sources[0]).toMatchObject({ ref: { chunk: 1, line: 2 } });
    expect(body.thought).toMatch(/searched: wisdom · \d+ passages? matched · used \[1\] chunk 1 line 2/);
  });

  it('keeps the conversation: "and then?" continues after the previous answer', async () => {
    await api.fetch(postJson(URL, { message: 'Is wisdom better than rubies?', sessionId: 'history' }));
    const response = await api.fetch(postJson(URL, { message: 'and then?', sessionId: 'history' }));
    const body = await response.json();
    expect(body.thought).toContain('continued after the previous answer');
    expect(body.response).toContain('sea');
    expect(response.headers.get('x-session-remaining')).toBe('18');
  });

  it('answers an untrained model with a clear reply, not an error', async () => {
    const empty = await redisServices();
    const response = await chat(empty).fetch(postJson(URL, { message: 'hello there' }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.response).toContain("I don't know anything yet");
    expect(body.response).toContain('POST /api/train');
    expect(body.sources).toEqual([]);
    expect(body.vocabSize).toBe(0);
  });
});

describe('POST /api/chat: session allowance on the real Redis', () => {
  it('gives exactly 20 successes for 30 concurrent messages on one free session', async () => {
    const services = await trainedServices({ RATE_LIMIT_REQUESTS: '1000' });
    const api = chat(services);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        api.fetch(postJson(URL, { message: 'light', sessionId: 'crowd', modelMode: 'instant' })),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    const refused = responses.find((response) => response.status === 429)!;
    expect(await refused.json()).toMatchObject({ code: 'session_limit', limit: 20, remaining: 0 });
    expect(refused.headers.get('x-session-limit')).toBe('20');
    expect(refused.headers.get('x-session-remaining')).toBe('0');
    const remaining = await Promise.all(
      responses.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-session-remaining'))),
    );
    expect(new Set(remaining).size).toBe(20);
    const other = await api.fetch(postJson(URL, { message: 'light', sessionId: 'another' }));
    expect(other.status).toBe(200);
  });
});

describe('POST /api/chat: sign-in through an identity provider', () => {
  let oidc: OidcStandin;
  let services: Services;
  let api: Endpoint;
  beforeAll(async () => {
    oidc = await startOidcStandin({ audience: 'chat-app' });
    services = await trainedServices({ OIDC_ISSUER: oidc.issuer, OIDC_AUDIENCE: 'chat-app' });
    api = chat(services);
  });
  afterAll(() => oidc.close());

  it('gives a signed-in user the larger allowance', async () => {
    const token = await oidc.mintToken({ sub: 'user-1', email: 'u@example.com' });
    const response = await api.fetch(
      postJson(URL, { message: 'light', sessionId: 'signed' }, { Authorization: `Bearer ${token}` }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-session-limit')).toBe('50');
    expect(response.headers.get('x-session-remaining')).toBe('49');
  });

  it('a claimed userId alone grants nothing', async () => {
    const response = await api.fetch(
      postJson(URL, { message: 'light', sessionId: 'claimed', userId: 'user-1' }),
    );
    expect(response.headers.get('x-session-limit')).toBe('20');
  });

  it.each([
    ['expired', { expiresIn: -3600 }],
    ['for another audience', { audience: 'other-app' }],
    ['from another issuer', { issuer: 'https://evil.example' }],
    ['with a bad signature', { signWithOtherKey: true }],
  ])('answers 401 for a token %s, never the free tier, and counts nothing', async (_name, options) => {
    const token = await oidc.mintToken({ sub: 'user-2' }, options);
    const response = await api.fetch(
      postJson(URL, { message: 'light', sessionId: 'bad-token' }, { Authorization: `Bearer ${token}` }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'invalid_token' });
    expect(await services.store.get('session-count:bad-token')).toBeNull();
  });

  it('answers 401 for a malformed Authorization header', async () => {
    const response = await api.fetch(postJson(URL, { message: 'light' }, { Authorization: 'Basic abc' }));
    expect(response.status).toBe(401);
  });
});

describe('POST /api/chat: IP rate limiting', () => {
  it('answers 429 rate_limited with Retry-After and RateLimit headers', async () => {
    const services = await trainedServices({ RATE_LIMIT_REQUESTS: '2' });
    const api = chat(services);
    const ip = { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' };
    const statuses = [];
    let last: Response | undefined;
    for (let index = 0; index < 3; index++) {
      last = await api.fetch(
        postJson(URL, { message: 'light', sessionId: `ip-${index}` }, { 'x-real-ip': '', ...ip }),
      );
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(await last!.json()).toMatchObject({ code: 'rate_limited', retryAfter: expect.any(Number) });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    expect(last!.headers.get('ratelimit-limit')).toBe('2');
  });

  it('fails open when the limiter store is unreachable (default) and closed when told to', async () => {
    const broken = { limit: async () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const open = await trainedServices({}, { limiter: broken });
    expect((await chat(open).fetch(postJson(URL, { message: 'light' }))).status).toBe(200);
    const closed = await trainedServices({ RATE_LIMIT_FAIL_OPEN: 'false' }, { limiter: broken });
    const response = await chat(closed).fetch(postJson(URL, { message: 'light' }));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'store_unavailable' });
  });
});

describe('POST /api/chat: the external model', () => {
  let llm: OpenAIStandin;
  let services: Services;
  let api: Endpoint;
  beforeAll(async () => {
    llm = await startOpenAIStandin();
    services = await trainedServices({
      LLM_BASE_URL: llm.baseUrl,
      LLM_API_KEY: 'sk-test',
      LLM_MODEL: 'standin-default',
      LLM_MODEL_APEX: 'standin-apex',
      LLM_TIMEOUT_MS: '500',
    });
    api = chat(services);
  });
  afterAll(() => llm.close());

  it('apex asks the external model with the history and the retrieved passages as numbered context', async () => {
    llm.setBehaviour('ok-with-reasoning');
    await api.fetch(postJson(URL, { message: 'the sea', sessionId: 'ext', modelMode: 'instant' }));
    const before = llm.requests.length;
    const response = await api.fetch(
      postJson(URL, { message: 'Tell me of wisdom', sessionId: 'ext', modelMode: 'apex' }),
    );
    const body = await response.json();
    expect(body.usedExternal).toBe(true);
    expect(body.response).toContain('echo:Tell me of wisdom');
    expect(body.thought).toContain('answered by standin-apex');
    expect(body.thought).toContain('reasoning:');
    expect(llm.requests.length).toBe(before + 1);
    const sent = llm.requests.at(-1)!.body;
    expect(sent.model).toBe('standin-apex');
    const system = JSON.stringify(sent.messages![0]);
    expect(system).toContain('[1] (chunk 1 line 2) Wisdom is better than rubies');
    expect(system).toContain('citing each fact with its number');
    expect(JSON.stringify(sent.messages)).toContain('the sea');
    expect(body.sources[0]).toMatchObject({ ref: { chunk: 1, line: 2 } });
  });

  it('expert and instant stay local', async () => {
    const before = llm.requests.length;
    const response = await api.fetch(postJson(URL, { message: 'wisdom', modelMode: 'expert' }));
    expect((await response.json()).usedExternal).toBe(false);
    expect(llm.requests.length).toBe(before);
  });

  it('raw: true returns the local reply even in apex', async () => {
    llm.setBehaviour('ok');
    const before = llm.requests.length;
    const response = await api.fetch(postJson(URL, { message: 'wisdom', modelMode: 'apex', raw: true }));
    const body = await response.json();
    expect(body.usedExternal).toBe(false);
    expect(body.response).not.toContain('echo:');
    expect(llm.requests.length).toBe(before);
  });

  it.each(['server-error', 'slow', 'malformed', 'empty-choices'] as const)(
    'falls back to the local reply when the external model fails (%s)',
    async (behaviour) => {
      llm.setBehaviour(behaviour, { delayMs: 2000 });
      const response = await api.fetch(postJson(URL, { message: 'wisdom and light', modelMode: 'apex' }));
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.usedExternal).toBe(false);
      expect(body.response.length).toBeGreaterThan(0);
      expect(body.thought).toContain('external model unavailable');
      llm.setBehaviour('ok');
    },
  );

  it('sends an attached image to the external model in apex', async () => {
    llm.setBehaviour('ok');
    const png = await solidImage('png', 32, 16, { r: 0, g: 0, b: 255, alpha: 1 });
    const response = await api.fetch(
      postJson(URL, { message: 'what is this?', modelMode: 'apex', imageBase64: png.toString('base64') }),
    );
    const body = await response.json();
    expect(body.usedExternal).toBe(true);
    expect(body.response).toContain('image:image/png');
  });
});

describe('POST /api/chat: images', () => {
  let api: Endpoint;
  beforeAll(async () => {
    api = chat(await trainedServices({ RATE_LIMIT_REQUESTS: '1000' }));
  });

  it.each(['instant', 'expert', 'apex'])(
    'talks about an image from its analysis in %s mode',
    async (modelMode) => {
      const png = await solidImage('png', 64, 32, { r: 220, g: 20, b: 20, alpha: 1 });
      const response = await api.fetch(
        postJson(URL, {
          message: 'look at this',
          modelMode,
          imageBase64: `data:image/png;base64,${png.toString('base64')}`,
        }),
      );
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.response).toMatch(/red/i);
      expect(body.response).toMatch(/landscape/i);
      expect(body.thought).toMatch(/image: /);
      expect(body.usedExternal).toBe(false);
    },
  );

  it('answers 400 for bad base64, 415 for a text file or an SVG, 413 over 5 MB', async () => {
    const badBase64 = await api.fetch(postJson(URL, { message: 'x', imageBase64: '!!!not base64!!!' }));
    expect(badBase64.status).toBe(400);
    const text = await api.fetch(postJson(URL, { message: 'x', imageBase64: textFile.toString('base64') }));
    expect(text.status).toBe(415);
    const svg = await api.fetch(
      postJson(URL, { message: 'x', imageBase64: svgWithScript.toString('base64') }),
    );
    expect(svg.status).toBe(415);
    const huge = Buffer.alloc(5 * 1024 * 1024 + 3, 1).toString('base64');
    const tooBig = await api.fetch(postJson(URL, { message: 'x', imageBase64: huge }));
    expect(tooBig.status).toBe(413);
  });
});

describe('POST /api/chat: when the store cannot be reached', () => {
  it('answers 503 store_unavailable (allowances fail closed), never a 500', async () => {
    const { freePort } = await import('../support/redis-server.js');
    const { upstashStore } = await import('../../lib/store/index.js');
    const port = await freePort();
    const store = upstashStore({ url: `http://127.0.0.1:${port}`, token: 'x', retries: 0 });
    const services = await redisServices({}, { store });
    const response = await chat(services).fetch(postJson(URL, { message: 'light' }));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'store_unavailable' });
  });
});
