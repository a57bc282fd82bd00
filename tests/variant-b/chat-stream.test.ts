import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type OpenAIStandin, standinReply, startOpenAIStandin } from '../support/openai-standin.js';
import { embeddedServices, postJson } from '../support/services.js';
import { readReplyStream } from '../support/sse.js';
import { startWikipediaStandin, type WikipediaStandin } from '../support/wikipedia-standin.js';

const URL = 'http://127.0.0.1/api/api/chat';
const streaming = { accept: 'text/event-stream' };

async function api(env: Record<string, string> = {}): Promise<Endpoint> {
  const services = embeddedServices({ WIKIPEDIA_TIMEOUT_MS: '400', ...env }, { random: mulberry32(5) });
  await services.model.train(SMALL_CORPUS);
  return endpoint(variantBChatHandlers(() => services));
}

describe('POST /api/api/chat: streaming with the local model', () => {
  let chat: Endpoint;
  let wiki: WikipediaStandin;
  beforeAll(async () => {
    wiki = await startWikipediaStandin();
    chat = await api({ WIKIPEDIA_BASE_URL: wiki.baseUrl });
  });
  afterAll(() => wiki.close());

  it.each(['standard', 'think', 'deep_think'])(
    'streams %s as delta events whose text is the done response',
    async (mode) => {
      const response = await chat.fetch(
        postJson(URL, { message: 'Tell me of the sea and light', mode }, streaming),
      );
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const { deltas, done, errors, names } = await readReplyStream(response);
      expect(errors).toEqual([]);
      expect(names.at(-1)).toBe('done');
      expect(done).toEqual([
        {
          response: deltas.join(''),
          mode,
          tokens: expect.any(Number),
          replyId: expect.any(String),
          sources: expect.any(Array),
          confidence: expect.any(Object),
        },
      ]);
      expect(deltas.length).toBeGreaterThan(1);
    },
  );

  it('keeps the line breaks of a think answer inside the deltas', async () => {
    const response = await chat.fetch(postJson(URL, { message: 'the sea', mode: 'think', stream: true }));
    const { deltas, done } = await readReplyStream(response);
    expect(String(done[0]!.response)).toMatch(/^1\. What was asked/);
    expect(deltas.join('')).toContain('\n2. ');
  });

  it('streams a www answer with its source in the done event', async () => {
    const response = await chat.fetch(
      postJson(URL, { message: 'Who was Alan Turing?', mode: 'www', stream: true }),
    );
    const { deltas, done } = await readReplyStream(response);
    expect(done[0]).toMatchObject({ mode: 'www', source: { title: 'Alan Turing' } });
    expect(deltas.join('')).toBe(done[0]!.response);
  });

  it('keeps a missing message an ordinary 400 JSON error', async () => {
    const response = await chat.fetch(postJson(URL, { stream: true }, streaming));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(typeof (await response.json()).error).toBe('string');
  });
});

describe('POST /api/api/chat: streaming the external model', () => {
  let llm: OpenAIStandin;
  let chat: Endpoint;
  beforeAll(async () => {
    llm = await startOpenAIStandin();
    chat = await api({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'standin', LLM_TIMEOUT_MS: '2000' });
  });
  afterAll(() => llm.close());

  it("streams the external model's pieces and counts its completion tokens", async () => {
    llm.setBehaviour('ok');
    const response = await chat.fetch(postJson(URL, { message: 'Hello there', mode: 'think' }, streaming));
    const { deltas, done } = await readReplyStream(response);
    const expected = standinReply('Hello there');
    expect(deltas).toHaveLength(expected.split(' ').length);
    expect(done).toEqual([
      {
        response: expected,
        mode: 'think',
        tokens: expect.any(Number),
        replyId: expect.any(String),
        sources: expect.any(Array),
        confidence: expect.any(Object),
      },
    ]);
  });

  it('falls back to the local answer, streamed, when the external model fails before its first piece', async () => {
    llm.setBehaviour('server-error');
    const { deltas, done } = await readReplyStream(
      await chat.fetch(postJson(URL, { message: 'the sea', mode: 'think' }, streaming)),
    );
    expect(String(done[0]!.response)).toMatch(/^1\. What was asked/);
    expect(deltas.join('')).toBe(done[0]!.response);
  });

  it('ends with an error event when the external model breaks off mid-answer', async () => {
    llm.setBehaviour('stream-break');
    const { done, errors } = await readReplyStream(
      await chat.fetch(postJson(URL, { message: 'Hello there' }, streaming)),
    );
    expect(done).toEqual([]);
    expect(errors).toEqual([{ error: expect.stringContaining('mid-answer'), code: 'inference_failed' }]);
    llm.setBehaviour('ok');
  });
});
