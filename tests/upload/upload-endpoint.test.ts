import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/config/index.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { createServices } from '../../lib/services/index.js';
import { uploadHandlers } from '../../lib/upload/handlers.js';
import { redisDatabase } from '../support/redis.js';
import { jpegWithGps, pngOfExactSize, solidImage } from '../vision/images.js';
import { multipartBody, uploadRequest } from './multipart.js';

describe('POST and GET /api/upload (on a real Redis)', () => {
  let upload: Endpoint;
  beforeAll(async () => {
    const { store } = await redisDatabase();
    const services = createServices(parseConfig({}), { store });
    upload = endpoint(uploadHandlers(() => services));
  });

  it('stores an image and serves it back byte for byte with its type and a long cache header', async () => {
    const png = await solidImage('png', 40, 20, { r: 200, g: 10, b: 10, alpha: 1 });
    const response = await upload.fetch(
      uploadRequest(multipartBody([{ name: 'file', filename: 'red.jpg', type: 'image/jpeg', data: png }])),
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ mimeType: 'image/png', bytes: png.byteLength, width: 40, height: 20 });
    expect(body.url).toBe(`http://127.0.0.1/api/upload?id=${body.id}`);
    expect(Buffer.from(body.base64, 'base64').equals(png)).toBe(true);
    const back = await upload.fetch(new Request(body.url));
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('image/png');
    expect(back.headers.get('cache-control')).toContain('max-age=31536000');
    expect(Buffer.from(await back.arrayBuffer()).equals(png)).toBe(true);
  });

  it('strips GPS metadata from what it stores', async () => {
    const jpeg = await jpegWithGps();
    const response = await upload.fetch(
      uploadRequest(multipartBody([{ name: 'file', filename: 'p.jpg', data: jpeg }])),
    );
    const body = await response.json();
    expect(body.metadataStripped).toBe(true);
    const back = Buffer.from(await (await upload.fetch(new Request(body.url))).arrayBuffer());
    expect(back.includes(Buffer.from('GPS'))).toBe(false);
  });

  it('accepts exactly 5 MB and refuses one byte more with 413', async () => {
    const exact = await pngOfExactSize(5 * 1024 * 1024);
    const ok = await upload.fetch(
      uploadRequest(multipartBody([{ name: 'file', filename: 'a.png', data: exact }])),
    );
    expect(ok.status).toBe(200);
    const over = await pngOfExactSize(5 * 1024 * 1024 + 1);
    const refused = await upload.fetch(
      uploadRequest(multipartBody([{ name: 'file', filename: 'a.png', data: over }])),
    );
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('answers 415 for a text file named .png and for a body that is not multipart', async () => {
    const text = await upload.fetch(
      uploadRequest(
        multipartBody([{ name: 'file', filename: 'a.png', type: 'image/png', data: 'hello, not an image' }]),
      ),
    );
    expect(text.status).toBe(415);
    const notMultipart = await upload.fetch(
      uploadRequest(new TextEncoder().encode('{}'), 'application/json'),
    );
    expect(notMultipart.status).toBe(415);
  });

  it('answers 400 for a missing file part, 404 for an unknown id, 400 for a malformed id', async () => {
    const missing = await upload.fetch(uploadRequest(multipartBody([{ name: 'other', data: 'x' }])));
    expect(missing.status).toBe(400);
    const unknown = await upload.fetch(new Request(`http://127.0.0.1/api/upload?id=${'a'.repeat(64)}`));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
    const malformed = await upload.fetch(new Request('http://127.0.0.1/api/upload?id=../../etc'));
    expect(malformed.status).toBe(400);
    const noId = await upload.fetch(new Request('http://127.0.0.1/api/upload'));
    expect(noId.status).toBe(400);
  });

  it('is rate limited per client address like chat: 429 with Retry-After past the limit', async () => {
    const { store } = await redisDatabase();
    const services = createServices(
      parseConfig({ RATE_LIMIT_REQUESTS: '2', TRUST_PROXY_HEADER: 'x-real-ip' }),
      {
        store,
      },
    );
    const limited = endpoint(uploadHandlers(() => services));
    const png = await solidImage('png', 10, 10, { r: 1, g: 2, b: 3, alpha: 1 });
    const send = (address: string) =>
      limited.fetch(
        uploadRequest(multipartBody([{ name: 'file', filename: 'a.png', data: png }]), undefined, {
          'x-real-ip': address,
        }),
      );
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await send('198.51.100.77')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await send('198.51.100.77');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    expect((await send('198.51.100.78')).status).toBe(200);
  });
});
