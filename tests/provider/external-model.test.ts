import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProvider, type ExternalModel, ExternalModelError } from '../../lib/provider/index.js';
import {
  type OpenAIStandin,
  standinReasoning,
  standinReply,
  startOpenAIStandin,
} from '../support/openai-standin.js';

const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe('ExternalModel against an OpenAI-compatible server', () => {
  let standin: OpenAIStandin;
  let model: ExternalModel;

  beforeAll(async () => {
    standin = await startOpenAIStandin();
    model = createProvider({
      baseUrl: standin.baseUrl,
      apiKey: 'sk-test-key',
      model: 'base-model',
      modelByMode: { expert: 'expert-model', apex: 'apex-model' },
      timeoutMs: 2000,
    });
  });
  afterAll(() => standin.close());
  beforeEach(() => {
    standin.setBehaviour('ok');
    standin.requests.length = 0;
  });

  async function failure(promise: Promise<unknown>): Promise<ExternalModelError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ExternalModelError);
    return error as ExternalModelError;
  }

  it('returns the answer, the completion tokens and the model name', async () => {
    const result = await model.complete({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hello there' }],
    });
    expect(result.text).toBe(standinReply('hello there'));
    expect(result.model).toBe('base-model');
    expect(result.completionTokens).toBe(standinReply('hello there').split(' ').length);
    expect(result.reasoning).toBeUndefined();
  });

  it('sends the system prompt, the turns, the limits and a Bearer API key on the wire', async () => {
    await model.complete({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'reply' },
        { role: 'user', content: 'second' },
      ],
      maxTokens: 99,
      temperature: 0.3,
    });
    const [request] = standin.requests;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-key');
    expect(request.body.stream).toBeFalsy();
    expect(request.body.max_tokens).toBe(99);
    expect(request.body.temperature).toBe(0.3);
    expect(request.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'second' },
    ]);
  });

  it('uses the model of each mode and the default model for modes without one', async () => {
    const ask = (mode?: 'instant' | 'expert' | 'apex') =>
      model.complete({ mode, system: 's', messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask('expert')).model).toBe('expert-model');
    expect((await ask('apex')).model).toBe('apex-model');
    expect((await ask('instant')).model).toBe('base-model');
    expect((await ask()).model).toBe('base-model');
    expect(standin.requests.map((request) => request.body.model)).toEqual([
      'expert-model',
      'apex-model',
      'base-model',
      'base-model',
    ]);
    expect(model.modelName('expert')).toBe('expert-model');
    expect(model.modelName()).toBe('base-model');
  });

  it('sends an image as an image_url part with a data: URL', async () => {
    const result = await model.complete({
      system: 's',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image', data: pngBytes, mediaType: 'image/png' },
          ],
        },
      ],
    });
    expect(result.text).toBe(standinReply('what is this?', 'image/png'));
    const last = standin.requests[0].body.messages?.at(-1);
    expect(last?.content).toEqual([
      { type: 'text', text: 'what is this?' },
      {
        type: 'image_url',
        image_url: { url: `data:image/png;base64,${Buffer.from(pngBytes).toString('base64')}` },
      },
    ]);
  });

  it('surfaces reasoning_content as reasoning', async () => {
    standin.setBehaviour('ok-with-reasoning');
    const result = await model.complete({ system: 's', messages: [{ role: 'user', content: 'think' }] });
    expect(result.reasoning).toBe(standinReasoning);
    expect(result.text).toBe(standinReply('think'));
  });

  it('sends no Authorization header when no API key is configured', async () => {
    const keyless = createProvider({ baseUrl: standin.baseUrl, model: 'm', timeoutMs: 2000 });
    await keyless.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }] });
    expect(standin.requests[0].headers.authorization).toBeUndefined();
  });

  it('fails with reason http and status 500 on a server error, without retrying', async () => {
    standin.setBehaviour('server-error');
    const error = await failure(model.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.reason).toBe('http');
    expect(error.status).toBe(500);
    expect(error.message).toContain('500');
    expect(standin.requests).toHaveLength(1);
  });

  it('fails with reason http and status 401 when the key is refused', async () => {
    standin.setBehaviour('unauthorized');
    const error = await failure(model.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.reason).toBe('http');
    expect(error.status).toBe(401);
  });

  it('fails with reason malformed when the body is not valid JSON', async () => {
    standin.setBehaviour('malformed');
    const error = await failure(model.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.reason).toBe('malformed');
  });

  it('fails with reason empty when the response has no choices', async () => {
    standin.setBehaviour('empty-choices');
    const error = await failure(model.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.reason).toBe('empty');
  });

  it('fails with reason empty when the answer is blank', async () => {
    standin.setBehaviour('empty-content');
    const error = await failure(model.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.reason).toBe('empty');
  });

  it('honours the timeout quickly with reason timeout', async () => {
    standin.setBehaviour('slow', { delayMs: 5000 });
    const quick = createProvider({ baseUrl: standin.baseUrl, model: 'm', timeoutMs: 150 });
    const started = performance.now();
    const error = await failure(quick.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('150 ms');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("fails with reason aborted when the caller's signal fires", async () => {
    standin.setBehaviour('slow', { delayMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(
      model.complete({ system: 's', messages: [{ role: 'user', content: 'hi' }], signal: controller.signal }),
    );
    expect(error.reason).toBe('aborted');
  });
});

describe('ExternalModel.stream against an OpenAI-compatible server', () => {
  let standin: OpenAIStandin;
  let model: ExternalModel;
  const ask = { system: 'Be brief.', messages: [{ role: 'user' as const, content: 'hello there' }] };

  beforeAll(async () => {
    standin = await startOpenAIStandin();
    model = createProvider({ baseUrl: standin.baseUrl, model: 'base-model', timeoutMs: 2000 });
  });
  afterAll(() => standin.close());
  beforeEach(() => standin.setBehaviour('ok'));

  async function streamed(): Promise<{ pieces: string[]; outcome: unknown }> {
    const pieces: string[] = [];
    const outcome = await model.stream(ask, (text) => pieces.push(text)).catch((error: unknown) => error);
    return { pieces, outcome };
  }

  it('hands each piece over as it arrives and resolves with the whole answer and its usage', async () => {
    const { pieces, outcome } = await streamed();
    const expected = standinReply('hello there');
    expect(pieces.join('')).toBe(expected);
    expect(pieces.length).toBe(expected.split(' ').length);
    expect(outcome).toMatchObject({ text: expected, model: 'base-model', completionTokens: pieces.length });
    const sent = standin.requests.at(-1)!.body;
    expect(sent.stream).toBe(true);
    expect(sent.stream_options).toEqual({ include_usage: true });
  });

  it('collects reasoning_content as reasoning, apart from the text', async () => {
    standin.setBehaviour('ok-with-reasoning');
    const { pieces, outcome } = await streamed();
    expect(pieces.join('')).toBe(standinReply('hello there'));
    expect(outcome).toMatchObject({ reasoning: standinReasoning });
  });

  it.each([
    ['server-error', 'http'],
    ['unauthorized', 'http'],
    ['empty-content', 'empty'],
  ] as const)('fails before any piece on %s with reason %s', async (behaviour, reason) => {
    standin.setBehaviour(behaviour);
    const { pieces, outcome } = await streamed();
    expect(pieces).toEqual([]);
    expect(outcome).toBeInstanceOf(ExternalModelError);
    expect((outcome as ExternalModelError).reason).toBe(reason);
  });

  it('fails with reason timeout when no piece comes within the timeout', async () => {
    standin.setBehaviour('slow', { delayMs: 5000 });
    const quick = createProvider({ baseUrl: standin.baseUrl, model: 'm', timeoutMs: 150 });
    const error = await quick.stream(ask, () => {}).catch((caught: unknown) => caught);
    expect((error as ExternalModelError).reason).toBe('timeout');
  });

  it('fails with reason interrupted when the stream breaks after its first piece', async () => {
    standin.setBehaviour('stream-break');
    const { pieces, outcome } = await streamed();
    expect(pieces.length).toBeGreaterThan(0);
    expect(outcome).toBeInstanceOf(ExternalModelError);
    expect((outcome as ExternalModelError).reason).toBe('interrupted');
  });
});

describe('ExternalModel when the server cannot be reached', () => {
  it('fails with reason network', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const model = createProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', timeoutMs: 2000 });
    const error = await model
      .complete({ system: 's', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ExternalModelError);
    expect((error as ExternalModelError).reason).toBe('network');
  });
});
