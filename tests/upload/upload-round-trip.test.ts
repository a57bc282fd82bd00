import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedStore } from '../../lib/store/index.js';
import {
  loadStoredImage,
  parseImageUpload,
  STORED_IMAGE_CACHE_CONTROL,
  storeUploadedImage,
} from '../../lib/upload/index.js';
import { MAX_IMAGE_BYTES } from '../../lib/vision/index.js';
import { testRecognizer } from '../support/text-recognizer.js';
import { animatedGif, solidImage, type WritableFormat, writableFormats } from '../vision/images.js';
import { fileUpload } from './multipart.js';

const store = createEmbeddedStore();
let server: Server;
let baseUrl: string;

/** A stand-in for GET /api/upload?id=, serving from the store as the real endpoint does. */
beforeAll(async () => {
  server = createServer(async (request, response) => {
    const id = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('id') ?? '';
    const image = await loadStoredImage(store, id).catch(() => undefined);
    if (!image) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': image.mimeType, 'cache-control': STORED_IMAGE_CACHE_CONTROL });
    response.end(image.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function upload(bytes: Uint8Array, filename: string) {
  const { bytes: received } = await parseImageUpload(
    fileUpload(bytes, filename, 'application/octet-stream'),
    {
      maxBytes: MAX_IMAGE_BYTES,
    },
  );
  return storeUploadedImage(store, received, {
    ttlSeconds: 600,
    publicBaseUrl: baseUrl,
    recognizer: testRecognizer(),
  });
}

describe('upload round trip', () => {
  it.each(writableFormats)(
    'serves an uploaded %s back byte for byte from its URL',
    async (format: WritableFormat) => {
      const original = await solidImage(format, 48, 36, '#2288cc');
      const result = await upload(original, `picture.${format}`);
      const response = await fetch(result.url);
      const served = Buffer.from(await response.arrayBuffer());

      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`image/${format}`);
      expect(response.headers.get('cache-control')).toBe(STORED_IMAGE_CACHE_CONTROL);
      expect(served.equals(original)).toBe(true);
      expect(served.equals(Buffer.from(result.base64, 'base64'))).toBe(true);
    },
  );

  it('serves an animated GIF back with all its frames', async () => {
    const gif = await animatedGif();
    const result = await upload(gif, 'anim.gif');
    expect(Buffer.from(await (await fetch(result.url)).arrayBuffer()).equals(gif)).toBe(true);
  });
});
