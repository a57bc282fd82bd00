import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, describeError, StreamError, sendChat } from '../../public/api.js';

/** Answers every fetch with `body` and `headers`, and keeps what was asked. */
function answerWith(body: string, headers: Record<string, string>, status = 200) {
  const asked: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    asked.push({ url, init });
    return new Response(body, { status, headers });
  });
  return asked;
}

const sse = { 'Content-Type': 'text/event-stream; charset=utf-8' };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sendChat (the page asking for a streamed reply)', () => {
  it('asks for a stream and hands each delta over, then resolves to the done object', async () => {
    const asked = answerWith(
      'event: delta\ndata: {"text":"In the "}\n\nevent: delta\ndata: {"text":"beginning"}\n\n' +
        'event: done\ndata: {"response":"In the beginning","sources":[]}\n\n',
      sse,
    );
    const pieces: string[] = [];
    const result = await sendChat(
      'api/chat',
      { message: 'hi' },
      { onDelta: (piece: string) => pieces.push(piece) },
    );
    expect(pieces).toEqual(['In the ', 'beginning']);
    expect(result).toMatchObject({ body: { response: 'In the beginning', sources: [] }, streamed: true });
    expect(asked[0].url).toBe('api/chat');
    expect(new Headers(asked[0].init.headers).get('accept')).toContain('text/event-stream');
    expect(JSON.parse(String(asked[0].init.body))).toEqual({ message: 'hi' });
  });

  it('takes a plain JSON answer whole from a server that does not stream', async () => {
    answerWith('{"response":"whole","mode":"standard","tokens":1}', { 'Content-Type': 'application/json' });
    const onDelta = vi.fn();
    const result = await sendChat('api/api/chat', { message: 'hi' }, { onDelta });
    expect(onDelta).not.toHaveBeenCalled();
    expect(result).toMatchObject({ body: { response: 'whole', tokens: 1 }, streamed: false });
  });

  it('rejects with the error event of a stream that failed part-way', async () => {
    answerWith(
      'event: delta\ndata: {"text":"half"}\n\nevent: error\ndata: {"error":"The model failed","code":"inference_failed"}\n\n',
      sse,
    );
    await expect(sendChat('api/chat', { message: 'hi' })).rejects.toMatchObject({
      message: 'The model failed',
      code: 'inference_failed',
    });
  });

  it('rejects when the stream ends without its done event', async () => {
    answerWith('event: delta\ndata: {"text":"half"}\n\n', sse);
    const failure = await sendChat('api/chat', { message: 'hi' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StreamError);
    expect(describeError(failure)).toBe('The reply was cut off before it finished');
  });

  it('rejects with an ApiError carrying the status, the JSON error and Retry-After', async () => {
    answerWith(
      '{"error":"Too many requests","code":"rate_limited","retryAfter":7}',
      { 'Retry-After': '7' },
      429,
    );
    const failure = await sendChat('api/chat', { message: 'hi' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 429, retryAfter: 7 });
    expect(describeError(failure)).toBe('Too many requests — try again in 7 s');
  });
});
