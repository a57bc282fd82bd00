import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/config/index.js';
import { endpoint } from '../../lib/http/index.js';
import { createServices } from '../../lib/services/index.js';
import { uploadHandlers } from '../../lib/upload/handlers.js';
import { createTextRecognizer } from '../../lib/vision/index.js';
import type { RecognitionEngine } from '../../lib/vision/text-recognition/index.js';
import { redisDatabase } from '../support/redis.js';
import { solidImage } from '../vision/images.js';
import { multipartBody, uploadRequest } from './multipart.js';

describe('POST /api/upload when the recognizer is busy', () => {
  it('answers 503 recognizer_busy with Retry-After once the queue is full, and the waiting upload still succeeds', async () => {
    const releases: (() => void)[] = [];
    const engine: RecognitionEngine = {
      recognize: () => new Promise((resolve) => releases.push(() => resolve([]))),
      terminate: async () => {},
    };
    const recognizer = createTextRecognizer({
      languages: ['eng'],
      timeoutMs: 4000,
      maxWaiting: 0,
      minConfidence: 60,
      start: async () => engine,
    });
    const { store } = await redisDatabase();
    const services = createServices(parseConfig({}), { store, textRecognizer: recognizer });
    const upload = endpoint(uploadHandlers(() => services));
    const send = async (colour: string) =>
      upload.fetch(
        uploadRequest(
          multipartBody([{ name: 'file', filename: 'a.png', data: await solidImage('png', 20, 20, colour) }]),
        ),
      );

    const first = send('#ff0000');
    while (releases.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = await send('#00ff00');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('4');
    expect(await refused.json()).toMatchObject({ code: 'recognizer_busy', retryAfter: 4 });
    releases[0]!();
    const done = await first;
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ text: [], textStatus: 'none' });
  });
});
