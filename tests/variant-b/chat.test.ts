import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { fitHistory } from '../../lib/variant-b/history.js';
import { decompose } from '../../lib/variant-b/local-reasoning.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type OpenAIStandin, startOpenAIStandin } from '../support/openai-standin.js';
import { embeddedServices, postJson, redisServices } from '../support/services.js';
import { startWikipediaStandin, type WikipediaStandin } from '../support/wikipedia-standin.js';

const URL = 'http://127.0.0.1/api/api/chat';

async function trained(env: Record<string, string> = {}): Promise<Services> {
  const services = embeddedServices({ WIKIPEDIA_TIMEOUT_MS: '400', ...env }, { random: mulberry32(3) });
  await services.model.train(SMALL_CORPUS);
  return services;
}

const api = (services: Services): Endpoint => endpoint(variantBChatHandlers(() => services));

describe('POST /api/api/chat: errors', () => {
  let chat: Endpoint;
  beforeAll(async () => {
    chat = api(await trained());
  });

  it.each([
    ['a missing message', {}],
    ['a non-string message', { message: 7 }],
    ['an empty message', { message: '' }],
    ['a whitespace-only message', { message: ' \n ' }],
    ['an unknown mode', { message: 'hi', mode: 'telepathy' }],
    ['history that is not an array', { message: 'hi', history: 'no' }],
  ])('answers 400 with an error for %s', async (_name, body) => {
    const response = await chat.fetch(postJson(URL, body));
    expect(response.status).toBe(400);
    const error = await response.json();
    expect(typeof error.error).toBe('string');
  });

  it('names the index of a bad history item', async () => {
    const history = [
      { role: 'user', content: 'ok' },
      { role: 'system', content: 'nope' },
    ];
    const response = await chat.fetch(postJson(URL, { message: 'hi', history }));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain('history.1.role');
    const missing = await chat.fetch(postJson(URL, { message: 'hi', history: [{ role: 'user' }] }));
    expect((await missing.json()).error).toContain('history.0.content');
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])(
    'answers %s with 405, Allow: POST, OPTIONS and a JSON error',
    async (method) => {
      const response = await chat.fetch(new Request(URL, { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(await response.json()).toHaveProperty('error');
    },
  );

  it('answers the OPTIONS preflight with 204', async () => {
    expect((await chat.fetch(new Request(URL, { method: 'OPTIONS' }))).status).toBe(204);
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON body', async () => {
    expect((await chat.fetch(postJson(URL, '{oops'))).status).toBe(400);
    const text = new Request(URL, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    expect((await chat.fetch(text)).status).toBe(415);
  });

  it('answers 500 with an error when inference fails', async () => {
    const services = await trained();
    const broken = { ...services, random: () => Number.NaN };
    const { passages } = await services.model.knowledge();
    Object.defineProperty(passages, 'search', {
      value: () => {
        throw new Error('corrupt index');
      },
    });
    const response = await api(broken).fetch(postJson(URL, { message: 'light' }));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 'inference_failed' });
  });

  it('is rate limited on the real Redis with 429 and Retry-After', async () => {
    const services = await redisServices({ RATE_LIMIT_REQUESTS: '1' });
    const chatB = api(services);
    expect((await chatB.fetch(postJson(URL, { message: 'hi' }))).status).toBe(200);
    const limited = await chatB.fetch(postJson(URL, { message: 'hi' }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
  });
});

describe('POST /api/api/chat: modes with the local model', () => {
  let chat: Endpoint;
  beforeAll(async () => {
    chat = api(await trained());
  });

  it('standard gives a direct answer with mode and a token count', async () => {
    const response = await chat.fetch(postJson(URL, { message: 'Tell me about the sea' }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.mode).toBe('standard');
    expect(body.response.length).toBeGreaterThan(0);
    expect(body.tokens).toBeGreaterThan(0);
    expect(body.response).not.toMatch(/^1\./);
  });

  it('think shows numbered steps of what was actually done, then the answer', async () => {
    const response = await chat.fetch(postJson(URL, { message: 'What is wisdom?', mode: 'think' }));
    const body = await response.json();
    expect(body.mode).toBe('think');
    expect(body.response).toMatch(/^1\. What was asked: “What is wisdom\?”/);
    expect(body.response).toMatch(/2\. What I searched for: wisdom\./);
    expect(body.response).toMatch(
      /3\. What I found: \d+ passages? with any of those words; the best covers \d+%/,
    );
    expect(body.response).toMatch(
      /4\. Passage \[1\] \(chunk 1 line 2, score [\d.]+\): “Wisdom is better than rubies/,
    );
    expect(body.response).toMatch(/5\. Answer: Wisdom is better than rubies.* \[1\]/);
    expect(body.sources).toHaveLength(1);
    expect(body.sources[0]).toMatchObject({ ref: { chunk: 1, line: 2 } });

    const unknown = await (
      await chat.fetch(postJson(URL, { message: 'What is a zyxxy?', mode: 'think' }))
    ).json();
    expect(unknown.response).toMatch(/2\. What I searched for: zyxxy \(never taught: zyxxy\)/);
    expect(unknown.response).toMatch(/Answer: Sorry, I can't answer that/);
    expect(unknown.sources).toEqual([]);
  });

  it('deep_think decomposes the request, answers each part, examines edge cases and concludes', async () => {
    const response = await chat.fetch(
      postJson(URL, {
        message: 'What is the sea? And what about the light and the qwerty?',
        mode: 'deep_think',
      }),
    );
    const body = await response.json();
    expect(body.mode).toBe('deep_think');
    expect(body.response).toMatch(/Decomposition: I read 2 sub-questions/);
    expect(body.response).toMatch(/Part 1: “What is the sea\?” \(\d+ passages? matched sea\)/);
    expect(body.response).toMatch(/Part 2: “And what about the light and the qwerty\?”/);
    expect(body.response).toMatch(/Unknown words: qwerty/);
    expect(body.response).toMatch(/Conflicting passages: /);
    expect(body.response).toMatch(/Nothing found: /);
    expect(body.response).toMatch(/Conclusion: .*sea.*\[1\]/);
    expect(body.sources.length).toBeGreaterThan(0);
  });

  it('makes a follow-up standalone from the history and shows the rewrite in its steps', async () => {
    const history = [
      { role: 'user', content: 'Where does the river flow?' },
      { role: 'assistant', content: 'The river flows to the sea and the sea is never full. [1]' },
    ];
    const response = await chat.fetch(postJson(URL, { message: 'Is it ever full?', mode: 'think', history }));
    const text = (await response.json()).response;
    expect(text).toMatch(
      /What it means in this conversation: “Is (?:(?:the )?(?:sea|river)|it) ever full\?(?: \(following “Where does the river flow\?”\))?”/,
    );
    expect(text).toMatch(/never full/);
  });

  it('cuts a long history to the token budget, oldest first, instead of rejecting it', async () => {
    const history = Array.from({ length: 400 }, (_, index) => ({
      role: index % 2 ? 'assistant' : 'user',
      content: `turn ${index} about the sea and the light and the ships`,
    }));
    const response = await chat.fetch(postJson(URL, { message: 'and now?', history }));
    expect(response.status).toBe(200);
    const { kept, dropped } = fitHistory(
      history as { role: 'user' | 'assistant'; content: string }[],
      (text) => text.split(' ').length,
      100,
    );
    expect(kept.at(-1)!.content).toContain('turn 399');
    expect(dropped).toBe(400 - kept.length);
    expect(kept.length).toBe(9);
  });

  it('decomposes sentences and "and" clauses', () => {
    expect(decompose('What is light? Where is the sea and why is it wide?')).toEqual([
      'What is light?',
      'Where is the sea',
      'why is it wide?',
    ]);
    expect(decompose('hello')).toEqual(['hello']);
  });
});

describe('POST /api/api/chat: www against a Wikipedia stand-in', () => {
  let wiki: WikipediaStandin;
  let chat: Endpoint;
  beforeAll(async () => {
    wiki = await startWikipediaStandin({ slowMs: 1500 });
    chat = api(await trained({ WIKIPEDIA_BASE_URL: wiki.baseUrl }));
  });
  afterAll(() => wiki.close());

  it('grounds the answer in the summary and names the source title and URL', async () => {
    const response = await chat.fetch(postJson(URL, { message: 'Who was Alan Turing?', mode: 'www' }));
    const body = await response.json();
    expect(body.mode).toBe('www');
    expect(body.response).toMatch(/Turing/);
    expect(body.response).toContain('Source: Alan Turing — ');
    expect(body.source).toEqual({ title: 'Alan Turing', url: expect.stringContaining('Alan_Turing') });
    expect(wiki.requests.some((request) => request.userAgent?.includes('ngram-chat-backend'))).toBe(true);
  });

  it('says honestly when the page is a disambiguation', async () => {
    const body = await (await chat.fetch(postJson(URL, { message: 'What is Mercury?', mode: 'www' }))).json();
    expect(body.response).toMatch(/may refer to several things/);
  });

  it('says honestly when nothing was found', async () => {
    const body = await (await chat.fetch(postJson(URL, { message: 'xqzvv plorbnik', mode: 'www' }))).json();
    expect(body.response).toMatch(/found nothing on Wikipedia/);
    expect(body.source).toBeUndefined();
  });

  it.each(['explode', 'garbled', 'sluggish'])(
    'says it could not reach Wikipedia on a failure (%s), not a 500',
    async (word) => {
      const response = await chat.fetch(postJson(URL, { message: `Tell me about ${word}`, mode: 'www' }));
      expect(response.status).toBe(200);
      expect((await response.json()).response).toMatch(/couldn't reach Wikipedia/);
    },
  );
});

describe('POST /api/api/chat: with the external model', () => {
  let llm: OpenAIStandin;
  let wiki: WikipediaStandin;
  let chat: Endpoint;
  beforeAll(async () => {
    llm = await startOpenAIStandin();
    wiki = await startWikipediaStandin();
    chat = api(
      await trained({
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'standin',
        LLM_TIMEOUT_MS: '500',
        WIKIPEDIA_BASE_URL: wiki.baseUrl,
      }),
    );
  });
  afterAll(async () => {
    await llm.close();
    await wiki.close();
  });

  it.each(['standard', 'think', 'deep_think'])(
    '%s answers through the external model with its completion tokens',
    async (mode) => {
      llm.setBehaviour('ok');
      const history = [{ role: 'user', content: 'earlier question' }];
      const body = await (await chat.fetch(postJson(URL, { message: 'Hello there', mode, history }))).json();
      expect(body.response).toContain('echo:Hello there');
      expect(body.tokens).toBeGreaterThan(0);
      const sent = llm.requests.at(-1)!.body;
      expect(JSON.stringify(sent.messages)).toContain('earlier question');
    },
  );

  it('www gives the extract to the external model as its only context', async () => {
    llm.setBehaviour('ok');
    const body = await (
      await chat.fetch(postJson(URL, { message: 'Who was Alan Turing?', mode: 'www' }))
    ).json();
    expect(body.response).toContain('echo:Who was Alan Turing?');
    const system = JSON.stringify(llm.requests.at(-1)!.body.messages![0]);
    expect(system).toContain('only the Wikipedia extract');
    expect(body.source.title).toBe('Alan Turing');
  });

  it('falls back to the local answer when the external model fails', async () => {
    llm.setBehaviour('server-error');
    const response = await chat.fetch(postJson(URL, { message: 'the sea', mode: 'think' }));
    expect(response.status).toBe(200);
    expect((await response.json()).response).toMatch(/^1\. What was asked/);
    llm.setBehaviour('ok');
  });
});
