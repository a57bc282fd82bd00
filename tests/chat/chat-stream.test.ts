import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type OpenAIStandin, standinReply, startOpenAIStandin } from '../support/openai-standin.js';
import { postJson, redisServices } from '../support/services.js';
import { readReplyStream } from '../support/sse.js';

const URL = 'http://127.0.0.1/api/chat';
const streaming = { accept: 'text/event-stream' };

async function trainedApi(env: Record<string, string> = {}): Promise<{ api: Endpoint; services: Services }> {
  const services = await redisServices(env, { random: mulberry32(11) });
  await services.model.train(SMALL_CORPUS);
  return { api: endpoint(chatHandlers(() => services)), services };
}

describe('POST /api/chat: streaming with the local model', () => {
  let api: Endpoint;
  beforeAll(async () => {
    ({ api } = await trainedApi({ SESSION_LIMIT_FREE: '3' }));
  });

  it('streams the reply as word-sized delta events, then one done event with the full response', async () => {
    const response = await api.fetch(
      postJson(URL, { message: 'Tell me of wisdom and light', sessionId: 'words' }, streaming),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('x-session-limit')).toBe('3');
    expect(response.headers.get('x-session-remaining')).toBe('2');
    expect(response.headers.get('ratelimit-limit')).not.toBeNull();
    const { deltas, done, errors, names } = await readReplyStream(response);
    expect(errors).toEqual([]);
    expect(names.at(-1)).toBe('done');
    expect(done).toHaveLength(1);
    const body = done[0]!;
    expect(body).toMatchObject({ usedExternal: false, vocabSize: expect.any(Number) });
    expect(typeof body.thought).toBe('string');
    expect(deltas.join('')).toBe(body.response);
    const words = String(body.response).split(/\s+/).filter(Boolean);
    expect(deltas).toHaveLength(words.length);
    expect(words.length).toBeGreaterThan(1);
  });

  it.each(['instant', 'expert', 'apex'])(
    'streams in %s mode when the body says "stream": true',
    async (modelMode) => {
      const response = await api.fetch(
        postJson(URL, { message: 'wisdom', modelMode, sessionId: `mode-${modelMode}`, stream: true }),
      );
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const { deltas, done } = await readReplyStream(response);
      expect(done).toHaveLength(1);
      expect(deltas.join('')).toBe(done[0]!.response);
    },
  );

  it('answers plain JSON when the body says "stream": false, whatever Accept says', async () => {
    const response = await api.fetch(
      postJson(URL, { message: 'wisdom', sessionId: 'plain', stream: false }, streaming),
    );
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ response: expect.any(String), usedExternal: false });
  });

  it('keeps invalid input an ordinary 400 JSON error, not a stream', async () => {
    const response = await api.fetch(postJson(URL, { message: '', stream: true }));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ code: 'validation_failed', field: 'message' });
  });

  it('rejects a non-boolean stream with 400 naming the field', async () => {
    const response = await api.fetch(postJson(URL, { message: 'hi', stream: 'yes' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'validation_failed', field: 'stream' });
  });

  it('answers 429 JSON when the session allowance is spent, before any stream', async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await api.fetch(postJson(URL, { message: 'light', sessionId: 'spent' }, streaming));
      expect((await readReplyStream(ok)).done).toHaveLength(1);
    }
    const response = await api.fetch(postJson(URL, { message: 'light', sessionId: 'spent' }, streaming));
    expect(response.status).toBe(429);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ code: 'session_limit', remaining: 0 });
  });

  it('records the streamed exchange in the session like a plain reply', async () => {
    const first = await readReplyStream(
      await api.fetch(postJson(URL, { message: 'the light of the world', sessionId: 'kept' }, streaming)),
    );
    const plain = await api.fetch(postJson(URL, { message: 'again', sessionId: 'kept' }));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-session-remaining')).toBe('1');
    expect(first.done[0]!.response).toBe(first.deltas.join(''));
  });
});

describe('POST /api/chat: streaming the external model', () => {
  let llm: OpenAIStandin;
  let api: Endpoint;
  beforeAll(async () => {
    llm = await startOpenAIStandin();
    ({ api } = await trainedApi({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'standin', LLM_TIMEOUT_MS: '2000' }));
  });
  afterAll(async () => {
    await llm?.close();
  });

  it("streams the external model's tokens as they arrive in apex, asking it for a stream", async () => {
    llm.setBehaviour('ok');
    const message = 'Tell me of wisdom';
    const response = await api.fetch(postJson(URL, { message, modelMode: 'apex' }, streaming));
    const { deltas, done, errors } = await readReplyStream(response);
    expect(errors).toEqual([]);
    const expected = standinReply(message);
    expect(done[0]).toMatchObject({ response: expected, usedExternal: true });
    expect(deltas.join('')).toBe(expected);
    expect(deltas.length).toBe(expected.split(' ').length);
    expect(llm.requests.at(-1)!.body.stream).toBe(true);
  });

  it.each(['server-error', 'unauthorized', 'empty-content'] as const)(
    'falls back to the local reply, streamed in words, when the external model fails before its first token (%s)',
    async (behaviour) => {
      llm.setBehaviour(behaviour);
      const response = await api.fetch(
        postJson(URL, { message: 'wisdom and light', modelMode: 'apex' }, streaming),
      );
      const { deltas, done, errors } = await readReplyStream(response);
      expect(errors).toEqual([]);
      expect(done[0]).toMatchObject({ usedExternal: false });
      expect(String(done[0]!.thought)).toContain('local answer used');
      expect(deltas.join('')).toBe(done[0]!.response);
      llm.setBehaviour('ok');
    },
  );

  it('falls back to the local reply when the external model does not start within the timeout', async () => {
    llm.setBehaviour('slow', { delayMs: 5000 });
    const response = await api.fetch(postJson(URL, { message: 'wisdom', modelMode: 'apex' }, streaming));
    const { done, errors } = await readReplyStream(response);
    expect(errors).toEqual([]);
    expect(String(done[0]!.thought)).toContain('timeout');
    llm.setBehaviour('ok');
  });

  it('ends with an error event and no done event when the external model breaks off mid-answer', async () => {
    llm.setBehaviour('stream-break');
    const message = 'Tell me of light';
    const response = await api.fetch(postJson(URL, { message, modelMode: 'apex' }, streaming));
    expect(response.status).toBe(200);
    const { deltas, done, errors, names } = await readReplyStream(response);
    expect(done).toEqual([]);
    expect(names.at(-1)).toBe('error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: 'inference_failed',
      error: expect.stringContaining('mid-answer'),
    });
    // Two words arrived; a word is sent once the next begins (nothing sent is taken back at a cut).
    expect(deltas.join('')).toBe(standinReply(message).split(' ').slice(0, 1).join(' '));
    llm.setBehaviour('ok');
  });

  it('does not call the external model in instant mode and streams the local reply', async () => {
    const before = llm.requests.length;
    const response = await api.fetch(postJson(URL, { message: 'wisdom', modelMode: 'instant' }, streaming));
    const { done } = await readReplyStream(response);
    expect(done[0]).toMatchObject({ usedExternal: false });
    expect(llm.requests.length).toBe(before);
  });
});

describe('POST /api/chat: a client that leaves mid-stream', () => {
  let llm: OpenAIStandin;
  let api: Endpoint;
  beforeAll(async () => {
    llm = await startOpenAIStandin();
    // A time-out far beyond the test's own, so only the client leaving can end the external call.
    ({ api } = await trainedApi({
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'standin',
      LLM_TIMEOUT_MS: '120000',
    }));
  });
  afterAll(async () => {
    await llm?.close();
  });

  it('stops the external model when the client cancels the stream', async () => {
    llm.setBehaviour('stream-stall');
    const response = await api.fetch(
      postJson(URL, { message: 'Tell me of light', modelMode: 'apex' }, streaming),
    );
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: delta');
    await reader.cancel();
    await llm.stalledStreamClosed();
  });
});
