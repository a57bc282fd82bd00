import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import OpenAI, { AuthenticationError, NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';

const API_KEY = 'clients-test-key-0123456789abcdef';

let server: RunningServer;
const dataDir = mkdtempSync(join(tmpdir(), 'openai-clients-'));

beforeAll(async () => {
  server = await startLocalServer({ DATA_DIR: dataDir, API_KEY });
  const trained = await fetch(`${server.url}/api/train`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: SMALL_CORPUS }),
  });
  expect(trained.status).toBe(200);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the official openai client against npm start', () => {
  const client = () => new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: API_KEY, maxRetries: 0 });

  it('creates a chat completion', async () => {
    const completion = await client().chat.completions.create({
      model: 'local-expert',
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'Tell me of wisdom and light' },
      ],
      temperature: 0.5,
      max_tokens: 40,
      user: 'client-test',
    });
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('local-expert');
    const [choice] = completion.choices;
    expect(choice!.message.role).toBe('assistant');
    expect(choice!.message.content!.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(choice!.finish_reason);
    expect(completion.usage!.total_tokens).toBe(
      completion.usage!.prompt_tokens + completion.usage!.completion_tokens,
    );
    expect((completion as unknown as { sources: unknown[] }).sources).toEqual(expect.any(Array));
  });

  it('streams a chat completion, with usage when asked', async () => {
    const stream = await client().chat.completions.create({
      model: 'local-instant',
      messages: [{ role: 'user', content: 'Tell me of the sea' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let completionTokens = 0;
    const ids = new Set<string>();
    for await (const chunk of stream) {
      ids.add(chunk.id);
      const choice = chunk.choices[0];
      if (choice?.delta.content) text += choice.delta.content;
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) completionTokens = chunk.usage.completion_tokens;
    }
    expect(ids.size).toBe(1);
    expect(text.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(finish);
    expect(completionTokens).toBeGreaterThan(0);
  });

  it('lists the models', async () => {
    const models = [];
    for await (const model of client().models.list()) models.push(model.id);
    expect(models).toEqual(['local-instant', 'local-expert', 'local-apex']);
  });

  it('surfaces an unknown model as NotFoundError with code model_not_found', async () => {
    const error = await client()
      .chat.completions.create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('model_not_found');
  });

  it('surfaces a wrong key as AuthenticationError', async () => {
    const wrong = new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'wrong-key', maxRetries: 0 });
    const error = await wrong.chat.completions
      .create({ model: 'local-instant', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('invalid_api_key');
  });
});

describe("the AI SDK's OpenAI-compatible provider against npm start", () => {
  const model = (name: string) =>
    createOpenAICompatible({
      name: 'ngram',
      baseURL: `${server.url}/api/v1`,
      apiKey: API_KEY,
      includeUsage: true,
    }).chatModel(name);

  it('generateText answers with text, usage and a finish reason', async () => {
    const result = await generateText({
      model: model('local-instant'),
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hello to you.' },
        { role: 'user', content: 'Tell me of wisdom' },
      ],
      maxRetries: 0,
    });
    expect(result.text.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(result.finishReason);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streamText streams pieces that add up to the text', async () => {
    const result = streamText({
      model: model('local-expert'),
      prompt: 'Tell me of the light',
      maxRetries: 0,
    });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(await result.text);
    expect((await result.usage).outputTokens).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(await result.finishReason);
  });

  it('generateText fails with the status of an unknown model', async () => {
    const error = await generateText({ model: model('nope'), prompt: 'hi', maxRetries: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect((error as { statusCode?: number }).statusCode).toBe(404);
  });
});
