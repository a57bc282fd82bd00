import { describe, expect, it } from 'vitest';
import { decodeChunk } from '../../lib/documents/index.js';
import { endpoint } from '../../lib/http/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { trainingKeys } from '../../lib/training/index.js';
import { parseFileUpload } from '../../lib/upload/index.js';
import { postJson, redisServices } from '../support/services.js';
import { BOUNDARY, multipartBody, uploadRequest } from './multipart.js';

const NAME = 'ünï©ødé-名前.md';

async function trainEndpoint() {
  const services = await redisServices();
  return { services, train: endpoint(trainHandlers(() => services)) };
}

function trainUpload(body: Buffer): Request {
  return new Request('http://127.0.0.1/api/train', {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

describe('clean input', () => {
  it('reads a multipart file name sent as raw UTF-8 as UTF-8 (POST /api/upload and /api/train)', async () => {
    const body = multipartBody([{ name: 'file', filename: NAME, data: '# Fjords\n\nFjords are deep.\n' }]);
    const upload = await parseFileUpload(uploadRequest(body), { maxBytes: 1024 });
    expect(upload.filename).toBe(NAME);

    const { services, train } = await trainEndpoint();
    const response = await train.fetch(trainUpload(body));
    expect(response.status, await response.clone().text()).toBe(200);
    const [chunk] = await services.store.lrange(trainingKeys.chunks, 0, -1);
    expect(decodeChunk(chunk!).name).toBe(NAME);
  });

  it("still reads a name sent the RFC 5987 way (filename*=UTF-8''...)", async () => {
    const body = multipartBody([
      {
        name: 'file',
        data: 'Plain words.',
        headers: [],
      },
    ]).toString('latin1');
    const encoded = body.replace(
      'name="file"',
      `name="file"; filename*=UTF-8''${encodeURIComponent('名前.txt')}`,
    );
    const upload = await parseFileUpload(uploadRequest(Buffer.from(encoded, 'latin1')), { maxBytes: 1024 });
    expect(upload.filename).toBe('名前.txt');
  });

  it('strips NUL and other control characters, but not tab and newline, before learning', async () => {
    const { services, train } = await trainEndpoint();
    const text = 'Narwhals\u0000 live\u0007 in the\u001b Arctic.\r\nThey\tdive deep.\u007f\u0085\rThe end.';
    const response = await train.fetch(
      postJson('http://127.0.0.1/api/train', { text, name: 'narwhal\u0000.txt' }),
    );
    expect(response.status).toBe(200);
    const sent = multipartBody([
      { name: 'file', filename: 'nul.txt', data: 'Walruses\u0000 have tusks.\u0001' },
    ]);
    expect((await train.fetch(trainUpload(sent))).status).toBe(200);
    const chunks = (await services.store.lrange(trainingKeys.chunks, 0, -1)).map(decodeChunk);
    expect(chunks.map((chunk) => [chunk.name, chunk.text])).toEqual([
      ['narwhal.txt', 'Narwhals live in the Arctic.\nThey\tdive deep.\nThe end.'],
      ['nul.txt', 'Walruses have tusks.'],
    ]);
    const { passages } = await services.model.knowledge();
    expect(passages.allTexts().join('\n')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});
