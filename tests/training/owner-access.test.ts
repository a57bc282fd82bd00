import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { parseConfig } from '../../lib/config/index.js';
import { endpoint } from '../../lib/http/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { uploadHandlers } from '../../lib/upload/handlers.js';
import { postJson, redisServices } from '../support/services.js';
import { BOUNDARY, multipartBody } from '../upload/multipart.js';

const OWNER = { 'x-owner-email': 'owner@example.org', authorization: 'Bearer admin-token-for-tests' };
const ENV = {
  OWNER_EMAIL: 'owner@example.org',
  ADMIN_TOKEN: 'admin-token-for-tests',
  RATE_LIMIT_REQUESTS: '2',
};

describe('the owner is not a visitor', () => {
  it('trains and chats past the per-address limit with X-Owner-Email and its proof; visitors are limited', async () => {
    const services = await redisServices(ENV);
    const train = endpoint(trainHandlers(() => services));
    const chat = endpoint(chatHandlers(() => services));
    for (let i = 0; i < 6; i++) {
      const response = await train.fetch(
        postJson(
          'http://127.0.0.1/api/train',
          { text: `Owner file ${i} about topic${i}.`, documentId: `f${i}` },
          OWNER,
        ),
      );
      expect(response.status, `owner train ${i}`).toBe(200);
    }
    for (let i = 0; i < 4; i++) {
      const response = await chat.fetch(
        postJson('http://127.0.0.1/api/chat', { message: 'What is topic3?', sessionId: `owner-${i}` }, OWNER),
      );
      expect(response.status, `owner chat ${i}`).toBe(200);
    }
    const visitor = () => train.fetch(postJson('http://127.0.0.1/api/train', { text: 'A visitor text.' }));
    expect((await visitor()).status).toBe(200);
    expect((await visitor()).status).toBe(200);
    const limited = await visitor();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });

  it('refuses a request that names the owner with a wrong or missing proof with 403, on any route', async () => {
    const services = await redisServices(ENV);
    const train = endpoint(trainHandlers(() => services));
    const chat = endpoint(chatHandlers(() => services));
    for (const headers of <Record<string, string>[]>[
      { 'x-owner-email': 'owner@example.org', authorization: 'Bearer wrong-token' },
      { 'x-owner-email': 'owner@example.org' },
      { 'x-owner-email': 'someone@example.org', authorization: 'Bearer admin-token-for-tests' },
    ]) {
      const trained = await train.fetch(
        postJson('http://127.0.0.1/api/train', { text: 'Not learned.' }, headers),
      );
      expect(trained.status, JSON.stringify(headers)).toBe(403);
      const chatted = await chat.fetch(postJson('http://127.0.0.1/api/chat', { message: 'Hello?' }, headers));
      expect(chatted.status, JSON.stringify(headers)).toBe(403);
    }
    expect((await services.model.stats()).chunks).toBe(0);
  });
});

describe('TRAIN_ACCESS=owner', () => {
  it('is open by default, and a value other than open or owner stops the start naming the variable', () => {
    expect(parseConfig({}).TRAIN_ACCESS).toBe('open');
    expect(parseConfig({ TRAIN_ACCESS: ' Owner ' }).TRAIN_ACCESS).toBe('owner');
    expect(() => parseConfig({ TRAIN_ACCESS: 'closed' })).toThrow(/TRAIN_ACCESS/);
  });

  it('lets only the owner train, by text, by file and by image upload with train=true', async () => {
    const services = await redisServices({ ...ENV, RATE_LIMIT_REQUESTS: '100', TRAIN_ACCESS: 'owner' });
    const train = endpoint(trainHandlers(() => services));
    const refused = await train.fetch(postJson('http://127.0.0.1/api/train', { text: 'A visitor text.' }));
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('forbidden');
    const file = (headers: Record<string, string>) =>
      train.fetch(
        new Request('http://127.0.0.1/api/train', {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
          body: new Uint8Array(
            multipartBody([{ name: 'file', filename: 'a.md', type: 'text/markdown', data: '# A\n\nText.' }]),
          ),
        }),
      );
    expect((await file({})).status).toBe(403);
    expect((await file(OWNER)).status).toBe(200);
    const upload = endpoint(uploadHandlers(() => services));
    const image = await upload.fetch(
      new Request('http://127.0.0.1/api/upload', {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: new Uint8Array(
          multipartBody([
            { name: 'train', data: 'true' },
            { name: 'file', filename: 'x.png', type: 'image/png', data: new Uint8Array([137, 80, 78, 71]) },
          ]),
        ),
      }),
    );
    expect(image.status).toBe(403);
    const owner = await train.fetch(
      postJson('http://127.0.0.1/api/train', { text: 'The owner text.' }, OWNER),
    );
    expect(owner.status).toBe(200);
    expect((await services.model.stats()).chunks).toBe(1 + 1);
  });
});
