import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { chatCompletionsHandlers, openAIErrorResponse } from '../../lib/openai/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { uploadHandlers } from '../../lib/upload/handlers.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { postJson, redisServices } from '../support/services.js';
import { multipartBody, uploadRequest } from '../upload/multipart.js';
import { receiptImage, shapesImage, textImage } from '../vision/images.js';

const CHAT = 'http://127.0.0.1/api/chat';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let services: Services;
let chat: Endpoint;
let upload: Endpoint;
let completions: Endpoint;
let sessionCounter = 0;
const session = () => `image-session-${++sessionCounter}`;

function send(body: Record<string, unknown>, address = '203.0.113.20'): Promise<Response> {
  return chat.fetch(postJson(CHAT, body, { 'x-real-ip': address }));
}

async function uploaded(
  image: Uint8Array,
  fields: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const parts = [
    { name: 'file', filename: 'image.png', type: 'image/png', data: image },
    ...Object.entries(fields).map(([name, data]) => ({ name, data })),
  ];
  const response = await upload.fetch(uploadRequest(multipartBody(parts)));
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  services = await redisServices({ TRUST_PROXY_HEADER: 'x-real-ip' }, { random: mulberry32(5) });
  await services.model.train(SMALL_CORPUS);
  chat = endpoint(chatHandlers(() => services));
  upload = endpoint(uploadHandlers(() => services));
  completions = endpoint(
    chatCompletionsHandlers(() => services),
    { renderError: openAIErrorResponse },
  );
});

describe('POST /api/chat with an image: its text is evidence', () => {
  it('quotes a rendered line when asked what the image says, citing the image', async () => {
    const png = await textImage(['Visitors must sign in at the front desk.']);
    const response = await send({
      message: 'What does the text in this image say?',
      imageBase64: base64(png),
      sessionId: session(),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.response).toContain('Visitors must sign in at the front desk.');
    expect(body.sources[0]).toMatchObject({ ref: { image: sha256(png), line: 1 } });
    expect(body.thought).toMatch(/text: 1 line/);
  });

  it("answers a receipt's total from its text with the line as source, and a follow-up from the session", async () => {
    const png = await receiptImage();
    const sessionId = session();
    const first = await (
      await send({ message: 'What is the total?', imageBase64: base64(png), sessionId })
    ).json();
    expect(first.response).toContain('12.45');
    expect(first.sources).toEqual([
      expect.objectContaining({ text: 'TOTAL 12.45', ref: { image: sha256(png), line: 5 } }),
    ]);
    const followUp = await (await send({ message: 'How much was the bread?', sessionId })).json();
    expect(followUp.response).toContain('2.45');
    expect(followUp.sources[0].ref).toEqual({ image: sha256(png), line: 3 });
    const again = await (await send({ message: 'What did it say again?', sessionId })).json();
    expect(again.response).toContain('> TOTAL 12.45');
    const elsewhere = await (await send({ message: 'What is better than rubies?', sessionId })).json();
    expect(elsewhere.response).toMatch(/wisdom/i);
    expect(elsewhere.sources[0].ref).toHaveProperty('chunk');
  });

  it('describes an image without text as before and says it found no text', async () => {
    const body = await (
      await send({
        message: 'What does this say?',
        imageBase64: base64(await shapesImage()),
        sessionId: session(),
      })
    ).json();
    expect(body.response).toMatch(/^A bright landscape PNG, 600×400/);
    expect(body.response).toContain('I found no text in it.');
    expect(body.sources.every((source: { ref: object }) => !('image' in source.ref))).toBe(true);
  });

  it('answers 400 for a damaged image', async () => {
    const png = await textImage(['damaged']);
    const response = await send({
      message: 'Read it',
      imageBase64: base64(png.subarray(0, png.length - 200)),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/truncated or corrupt/);
  });
});

describe('an uploaded image in chat, by its id', () => {
  it('returns the text with the upload and lets chat use it by imageId, from any client', async () => {
    const png = await textImage(['Platform nine: trains to London']);
    const stored = await uploaded(png);
    expect(stored).toMatchObject({ text: ['Platform nine: trains to London'], textStatus: 'read' });
    expect(stored).not.toHaveProperty('training');
    const mine = await (
      await send({
        message: 'Which platform has trains to London?',
        imageId: stored.id,
        sessionId: session(),
      })
    ).json();
    expect(mine.response).toContain('Platform nine');
    expect(mine.sources[0].ref).toEqual({ image: stored.id, line: 1 });
    // Images are not owned: whoever holds the id (the SHA-256 of the bytes) may use it, as GET may.
    const other = await send({ message: 'What does it say?', imageId: stored.id }, '198.51.100.77');
    expect(other.status).toBe(200);
    expect((await other.json()).response).toContain('Platform nine');
  });

  it('answers 404 for an unknown imageId and 400 for one of the wrong form or beside imageBase64', async () => {
    const unknown = await send({ message: 'What does it say?', imageId: 'a'.repeat(64) });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe('not_found');
    expect((await send({ message: 'hi', imageId: 'not-an-id' })).status).toBe(400);
    const both = await send({ message: 'hi', imageId: 'a'.repeat(64), imageBase64: 'AAAA' });
    expect(both.status).toBe(400);
  });

  it('takes an uploaded image as an image_url of this service in /api/v1/chat/completions', async () => {
    const stored = await uploaded(await textImage(['Harvest festival on Saturday']));
    const ask = (url: string) =>
      completions.fetch(
        postJson(
          'http://127.0.0.1/api/v1/chat/completions',
          {
            model: 'local-instant',
            messages: [
              {
                role: 'user',
                content: [
                  { type: 'text', text: 'What does the image say?' },
                  { type: 'image_url', image_url: { url } },
                ],
              },
            ],
          },
          { 'x-real-ip': '203.0.113.30' },
        ),
      );
    const found = await ask(String(stored.url));
    expect(found.status).toBe(200);
    expect((await found.json()).choices[0].message.content).toContain('Harvest festival on Saturday');
    expect((await ask(`/api/upload?id=${'b'.repeat(64)}`)).status).toBe(404);
    expect((await ask('https://elsewhere.example/cat.png')).status).toBe(400);
  });
});

describe('POST /api/upload with train=true', () => {
  it('trains the text into the model under the image, so chat answers it from the trained text', async () => {
    const png = await textImage(['The ferry to Skye leaves at seven from pier four.']);
    const before = services.model.cachedKnowledge().model.vocabSize;
    const stored = await uploaded(png, { train: 'true' });
    expect(stored.training).toMatchObject({
      status: 'trained',
      source: `image:${stored.id}`,
      tokens: expect.any(Number),
    });
    expect(services.model.cachedKnowledge().model.vocabSize).toBeGreaterThan(before);
    const body = await (
      await send({ message: 'When does the ferry to Skye leave?', sessionId: session() })
    ).json();
    expect(body.response).toContain('seven');
    expect(body.sources[0].ref).toHaveProperty('chunk');
    expect(body.sources[0].file).toBe(`image:${stored.id}`);
  });

  it('trains nothing for an image without text and refuses a train value that is not a boolean', async () => {
    expect((await uploaded(await shapesImage(), { train: 'yes' })).training).toEqual({ status: 'no_text' });
    const png = await textImage(['maybe']);
    const response = await upload.fetch(
      uploadRequest(
        multipartBody([
          { name: 'file', filename: 'a.png', type: 'image/png', data: png },
          { name: 'train', data: 'maybe' },
        ]),
      ),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).field).toBe('train');
  });
});
