import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http/index.js';
import { setLogLevel } from '../../lib/log/index.js';
import { newCompletion, usageOf } from '../../lib/openai/completion.js';
import { streamChatCompletion } from '../../lib/openai/stream.js';
import { StoreUnavailableError } from '../../lib/store/index.js';
import { readEvents } from '../support/sse.js';

const identity = newCompletion('local-instant', Date.now());
const ending = () => ({ finishReason: 'stop' as const, usage: usageOf(2, 2), sources: [] });

async function datas(response: Response): Promise<unknown[]> {
  return (await readEvents(response)).map((event) =>
    event.data === '[DONE]' ? '[DONE]' : JSON.parse(event.data),
  );
}

describe('a Chat Completions stream', () => {
  it('ends a failure after the first piece with an OpenAI error event and no [DONE] (store down: 503 store_unavailable)', async () => {
    setLogLevel('silent');
    const response = await streamChatCompletion(
      identity,
      { includeUsage: false },
      async (onDelta) => {
        onDelta('Hello ');
        onDelta('there');
        throw new StoreUnavailableError('rpush', new Error('connection refused'));
      },
      ending,
    );
    const events = await datas(response);
    expect(events.at(-1)).toEqual({
      error: {
        message: expect.stringContaining('data store'),
        type: 'server_error',
        param: null,
        code: 'store_unavailable',
      },
    });
    expect(events).not.toContain('[DONE]');
    expect(events).toHaveLength(4);
  });

  it('throws a failure before the first piece to the caller, so it becomes an ordinary JSON error', async () => {
    const failure = new HttpError('session_limit', 'spent', { limit: 1, remaining: 0 });
    await expect(
      streamChatCompletion(
        identity,
        { includeUsage: false },
        async () => {
          throw failure;
        },
        ending,
      ),
    ).rejects.toBe(failure);
  });

  it('still sends the role, the finish chunk and [DONE] for an answer without pieces', async () => {
    const response = await streamChatCompletion(identity, { includeUsage: true }, async () => 'done', ending);
    const events = (await datas(response)) as Record<string, unknown>[];
    expect(events).toHaveLength(4);
    expect(events[0]).toMatchObject({ choices: [{ delta: { role: 'assistant', content: '' } }] });
    expect(events[1]).toMatchObject({ choices: [{ delta: {}, finish_reason: 'stop' }], sources: [] });
    expect(events[2]).toMatchObject({ choices: [], usage: { total_tokens: 4 } });
    expect(events[3]).toBe('[DONE]');
  });
});
