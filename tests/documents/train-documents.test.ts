import { describe, expect, it } from 'vitest';
import { decodeChunk } from '../../lib/documents/index.js';
import { endpoint } from '../../lib/http/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { createModelKeeper, trainingKeys } from '../../lib/training/index.js';
import { postJson, redisServices } from '../support/services.js';
import { tinyPdf } from './tiny-pdf.js';

const URL = 'http://127.0.0.1/api/train';

function upload(file: Uint8Array | string, filename: string, fields: Record<string, string> = {}, type = '') {
  const form = new FormData();
  const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : file;
  form.set('file', new Blob([new Uint8Array(bytes)], type ? { type } : {}), filename);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return new Request(URL, { method: 'POST', body: form });
}

async function trainEndpoint() {
  const services = await redisServices();
  return { services, train: endpoint(trainHandlers(() => services)) };
}

const MARKDOWN =
  '# Shop\n\n## Returns\n\nReturns are free within thirty days.\n\n```sh\nshop return 42\n```\n';

describe('POST /api/train with documents', () => {
  it('stores a JSON text with its format and name; the model learns its prose, not its code', async () => {
    const { services, train } = await trainEndpoint();
    const response = await train.fetch(
      postJson(URL, { text: MARKDOWN, format: 'markdown', name: 'shop.md' }),
    );
    expect(response.status).toBe(200);
    // Shop / Returns / Returns are free within thirty days . : the code block teaches no tokens.
    expect((await response.json()).tokens).toBe(9);
    const [chunk] = await services.store.lrange(trainingKeys.chunks, 0, -1);
    expect(decodeChunk(chunk!)).toEqual({
      format: 'markdown',
      name: 'shop.md',
      documentId: expect.stringMatching(/^text-[0-9a-f]{16}$/),
      text: MARKDOWN,
    });
    const { passages } = await services.model.knowledge();
    expect(passages.allTexts().join('\n')).toContain('Returns are free within thirty days.');
  });

  it('rejects an unknown format and an empty name with 400, storing nothing', async () => {
    const { services, train } = await trainEndpoint();
    for (const body of [
      { text: 'hello', format: 'docx' },
      { text: 'hello', name: '  ' },
      { text: 'hello', name: 7 },
    ]) {
      const response = await train.fetch(postJson(URL, body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).code).toBe('validation_failed');
    }
    expect(await services.store.llen(trainingKeys.chunks)).toBe(0);
  });

  it('trains uploaded .md, .html and .txt files, named by the file unless a name is given', async () => {
    const { services, train } = await trainEndpoint();
    const answers = await Promise.all([
      train.fetch(upload(MARKDOWN, 'shop.md')),
      train.fetch(upload('<main><h2>Hours</h2><p>We open at nine.</p></main>', 'hours.html')),
      train.fetch(upload('Plain words to learn.', 'notes.txt', { name: 'docs/notes.txt' })),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const chunks = (await services.store.lrange(trainingKeys.chunks, 0, -1)).map(decodeChunk);
    expect(chunks.map(({ format, name }) => `${format} ${name}`).sort()).toEqual([
      'html hours.html',
      'markdown shop.md',
      'text docs/notes.txt',
    ]);
  });

  it('trains an uploaded PDF: the chunk is its extracted text, pages separated by form feeds', async () => {
    const { services, train } = await trainEndpoint();
    const pdf = tinyPdf([['Page one says hello.'], ['Page two says goodbye.']]);
    const response = await train.fetch(upload(pdf, 'guide.pdf', {}, 'application/pdf'));
    expect(response.status, await response.clone().text()).toBe(200);
    const [chunk] = await services.store.lrange(trainingKeys.chunks, 0, -1);
    const stored = decodeChunk(chunk!);
    expect(stored).toMatchObject({ format: 'pdf', name: 'guide.pdf' });
    expect(stored.text.split('\f').map((page) => page.trim())).toEqual([
      'Page one says hello.',
      'Page two says goodbye.',
    ]);
  });

  it('answers 415 for a file of unknown kind, 400 for an unreadable PDF, 413 for text over 1 MB after extraction', async () => {
    const { services, train } = await trainEndpoint();
    const unknown = await train.fetch(upload('PK\u0003\u0004', 'report.docx'));
    expect(unknown.status).toBe(415);
    expect(await unknown.json()).toMatchObject({ code: 'unsupported_media_type' });
    const broken = await train.fetch(upload('%PDF-1.4 this is not really a pdf', 'broken.pdf'));
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toMatch(/^The PDF could not be read/);
    const large = await train.fetch(upload('word '.repeat(220_000), 'big.txt'));
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ code: 'payload_too_large', limitBytes: 1024 * 1024 });
    expect(await services.store.llen(trainingKeys.chunks)).toBe(0);
  });

  it('refuses a dialogue without turns with 400, and keeps the pairs of one that has them, across a cold start', async () => {
    const { services, train } = await trainEndpoint();
    const none = await train.fetch(postJson(URL, { text: 'no turns at all', format: 'dialogue' }));
    expect(none.status).toBe(400);
    expect(await services.store.llen(trainingKeys.chunks)).toBe(0);
    const dialogue = 'User: what are your hours?\nAssistant: We open at nine.';
    const writer = createModelKeeper(services.store, { order: 3, snapshotEvery: 1 });
    await writer.train({ format: 'dialogue', text: dialogue });
    await writer.train('The shop sells shoes.');
    await writer.idle();
    const pairs = [{ prompt: 'what are your hours?', reply: 'We open at nine.' }];
    expect(writer.dialogue()).toEqual(pairs);
    expect(writer.cachedKnowledge().passages.allTexts()).toEqual(['The shop sells shoes.']);
    // A cold instance starts from the snapshot (it covers both chunks) and still has the pairs.
    expect(await services.store.get(trainingKeys.snapshotChunks)).toBe('2');
    const cold = createModelKeeper(services.store, { order: 3, snapshotEvery: 1 });
    await cold.knowledge();
    expect(cold.dialogue()).toEqual(pairs);
  });
});
