import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { chatCompletionsHandlers, openAIErrorResponse } from '../../lib/openai/index.js';
import { externalTokenBudget } from '../../lib/provider/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { CUT_MARK, countTokens } from '../../lib/text/index.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type OpenAIStandin, startOpenAIStandin } from '../support/openai-standin.js';
import { postJson, redisServices } from '../support/services.js';
import { readEvents, readReplyStream } from '../support/sse.js';

const QUESTION = 'What is better than rubies, and what is better than precious ointment?';
const LIMITS = [1, 3, 5, 20];
const streaming = { accept: 'text/event-stream' };

let request = 0;
const fresh = () => ({ 'x-real-ip': `10.77.${Math.floor(++request / 250)}.${request % 250}` });

interface Paths {
  a: Endpoint;
  b: Endpoint;
  v1: Endpoint;
}

async function paths(env: Record<string, string> = {}): Promise<Paths & { services: Services }> {
  const services = await redisServices(
    { TRUST_PROXY_HEADER: 'x-real-ip', SESSION_LIMIT_FREE: '50', ...env },
    { random: mulberry32(3) },
  );
  await services.model.train(SMALL_CORPUS);
  return {
    services,
    a: endpoint(chatHandlers(() => services)),
    b: endpoint(variantBChatHandlers(() => services)),
    v1: endpoint(
      chatCompletionsHandlers(() => services),
      { renderError: openAIErrorResponse },
    ),
  };
}

/** Asks every path once; each answers with its reply text and whether it says it cut. */
function askers(api: Paths, extra: { modelMode?: string; model?: string } = {}) {
  const a = (stream: boolean) => async (maxTokens: number) => {
    const body = { message: QUESTION, maxTokens, sessionId: `max-${++request}`, ...extra };
    const response = await api.a.fetch(
      postJson('http://127.0.0.1/api/chat', body, { ...fresh(), ...(stream ? streaming : {}) }),
    );
    if (!stream) return { text: (await response.json()).response as string };
    const { deltas, done } = await readReplyStream(response);
    expect(deltas.join('')).toBe(done[0]!.response);
    return { text: done[0]!.response as string };
  };
  const b = (stream: boolean) => async (maxTokens: number) => {
    const body = { message: QUESTION, maxTokens, stream };
    const response = await api.b.fetch(postJson('http://127.0.0.1/api/api/chat', body, fresh()));
    const answer = stream ? (await readReplyStream(response)).done[0]! : await response.json();
    expect(answer.tokens).toBe(countTokens(answer.response));
    return { text: answer.response as string };
  };
  const v1 = (stream: boolean) => async (maxTokens: number) => {
    const body = {
      model: extra.model ?? 'local-expert',
      messages: [{ role: 'user', content: QUESTION }],
      max_tokens: maxTokens,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    };
    const response = await api.v1.fetch(postJson('http://127.0.0.1/api/v1/chat/completions', body, fresh()));
    if (!stream) {
      const completion = await response.json();
      const text = completion.choices[0].message.content as string;
      expect(completion.usage.completion_tokens).toBe(countTokens(text));
      return { text, finish: completion.choices[0].finish_reason as string };
    }
    const chunks = (await readEvents(response))
      .filter((e) => e.data !== '[DONE]')
      .map((e) => JSON.parse(e.data));
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('');
    const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason)?.choices[0].finish_reason;
    expect(chunks.at(-1).usage.completion_tokens).toBe(countTokens(text));
    return { text, finish: finish as string };
  };
  return {
    'Variant A': a(false),
    'Variant A stream': a(true),
    'Variant B': b(false),
    'Variant B stream': b(true),
    '/api/v1': v1(false),
    '/api/v1 stream': v1(true),
  };
}

type Ask = (maxTokens: number) => Promise<{ text: string; finish?: string }>;

async function expectLimited(ask: Ask): Promise<void> {
  const whole = await ask(400);
  expect(whole.text).not.toContain(CUT_MARK);
  if (whole.finish) expect(whole.finish).toBe('stop');
  for (const max of LIMITS) {
    const limited = await ask(max);
    const cut = countTokens(whole.text) > max;
    expect(countTokens(limited.text), `maxTokens ${max}: ${limited.text}`).toBeLessThanOrEqual(max);
    if (cut) expect(limited.text.endsWith(CUT_MARK) || max === 1).toBe(true);
    else expect(limited.text).toBe(whole.text);
    if (limited.finish) expect(limited.finish).toBe(cut ? 'length' : 'stop');
  }
}

describe('maxTokens on every path with the local model', () => {
  let api: Paths;
  beforeAll(async () => {
    api = await paths();
  });

  it.each(Object.keys(askers({} as Paths)))(
    '%s: never more tokens than asked (1, 3, 5, 20), a cut ends with "…" and says "length"',
    async (path) => {
      await expectLimited(askers(api)[path as keyof ReturnType<typeof askers>]);
    },
  );

  it('keeps the first words of the answer at maxTokens 3', async () => {
    const { text: whole } = await askers(api)['Variant A'](400);
    const { text } = await askers(api)['Variant A'](3);
    expect(whole.startsWith(text.replace(/ ?…$/, ''))).toBe(true);
  });

  it('rejects a Variant B maxTokens that is not a whole number from 1 to 400 with 400', async () => {
    for (const maxTokens of [0, 2.5, 401, '5']) {
      const response = await api.b.fetch(
        postJson('http://127.0.0.1/api/api/chat', { message: 'hi', maxTokens }, fresh()),
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'validation_failed', field: 'maxTokens' });
    }
  });
});

describe('maxTokens with the external model', () => {
  let llm: OpenAIStandin;
  let api: Paths;
  beforeAll(async () => {
    llm = await startOpenAIStandin();
    api = await paths({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'standin', LLM_TIMEOUT_MS: '5000' });
  });
  afterAll(() => llm.close());

  it.each(Object.keys(askers({} as Paths)))(
    '%s: the external answer is cut to maxTokens too, streamed or not',
    async (path) => {
      const ask = askers(api, { modelMode: 'apex', model: 'local-apex' })[
        path as keyof ReturnType<typeof askers>
      ];
      await expectLimited(ask);
    },
  );

  it('asks the external model with a budget that follows maxTokens and tells it the limit', async () => {
    llm.requests.length = 0;
    await askers(api, { modelMode: 'apex' })['Variant A'](20);
    const [sent] = llm.requests;
    expect(sent!.body.max_tokens).toBe(externalTokenBudget(20));
    expect(JSON.stringify(sent!.body.messages)).toContain('cut after 20 tokens');
  });
});
