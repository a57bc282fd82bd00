import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminExportHandlers,
  adminResetModelHandlers,
  adminSessionHandlers,
  adminStatsHandlers,
} from '../../lib/admin/index.js';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { parseConfig } from '../../lib/config/index.js';
import { healthHandlers } from '../../lib/health/handlers.js';
import { endpoint, type MethodHandler } from '../../lib/http/index.js';
import { chatCompletionsHandlers, openAIErrorResponse } from '../../lib/openai/index.js';
import { createServices, type Services } from '../../lib/services/index.js';
import { upstashStore } from '../../lib/store/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { uploadHandlers } from '../../lib/upload/handlers.js';
import { variantBChatHandlers, variantBHealthHandlers } from '../../lib/variant-b/handlers.js';
import { freePort } from '../support/redis-server.js';
import { postJson } from '../support/services.js';

const OWNER = 'owner@example.com';
const ADMIN_TOKEN = 'store-down-admin-token-0123456789';
const owner = { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ADMIN_TOKEN}` };
/** What a body must never show: the backend's own errors, addresses, keys and commands. */
const INTERNALS =
  /ECONNREFUSED|fetch failed|127\.0\.0\.1|session-count|corpus|rpush|lrange|incr|UpstashError|stack/i;

type Handlers = Partial<Record<'GET' | 'POST' | 'DELETE', MethodHandler>>;

/** Services whose store (Upstash REST) points at a port nothing listens on. */
async function servicesWithoutStore(env: Record<string, string> = {}): Promise<Services> {
  const port = await freePort();
  return createServices(parseConfig({ OWNER_EMAIL: OWNER, ADMIN_TOKEN, ...env }), {
    store: upstashStore({ url: `http://127.0.0.1:${port}`, token: 'unreachable', retries: 0 }),
    limiter: {
      limit: async () => {
        throw new Error(`connect ECONNREFUSED 127.0.0.1:${port}`);
      },
    },
  });
}

async function expectStoreUnavailable(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(503);
  const body = JSON.parse(text);
  expect(body).toMatchObject({ code: 'store_unavailable', retryAfter: expect.any(Number) });
  expect(body.error).toMatch(/cannot reach its data store.*try again/);
  expect(text).not.toMatch(INTERNALS);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('every endpoint with the store down', () => {
  let services: Services;
  let png: Buffer;
  beforeAll(async () => {
    services = await servicesWithoutStore();
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#204060' } })
      .png()
      .toBuffer();
  });
  const call = (handlers: Handlers, request: Request) => endpoint(handlers).fetch(request);
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Request(`http://127.0.0.1${path}`, { headers });

  it('POST /api/train answers 503 store_unavailable without internals', async () => {
    await expectStoreUnavailable(
      await call(
        trainHandlers(() => services),
        postJson('http://127.0.0.1/api/train', { text: 'a b c' }),
      ),
    );
  });

  it('POST /api/chat answers 503 store_unavailable without internals', async () => {
    await expectStoreUnavailable(
      await call(
        chatHandlers(() => services),
        postJson('http://127.0.0.1/api/chat', { message: 'hello' }),
      ),
    );
  });

  it('POST /api/upload answers 503 store_unavailable without internals', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)]), 'a.png');
    const request = new Request('http://127.0.0.1/api/upload', { method: 'POST', body: form });
    await expectStoreUnavailable(
      await call(
        uploadHandlers(() => services),
        request,
      ),
    );
  });

  it('GET /api/upload?id= answers 503 store_unavailable without internals', async () => {
    const request = get(`/api/upload?id=${'a'.repeat(64)}`);
    await expectStoreUnavailable(
      await call(
        uploadHandlers(() => services),
        request,
      ),
    );
  });

  it('every admin endpoint answers 503 store_unavailable without internals', async () => {
    await expectStoreUnavailable(
      await call(
        adminStatsHandlers(() => services),
        get('/api/admin/stats', owner),
      ),
    );
    await expectStoreUnavailable(
      await call(
        adminExportHandlers(() => services),
        get('/api/admin/export', owner),
      ),
    );
    await expectStoreUnavailable(
      await call(
        adminResetModelHandlers(() => services),
        new Request('http://127.0.0.1/api/admin/reset-model', { method: 'POST', headers: owner }),
      ),
    );
    await expectStoreUnavailable(
      await call(
        adminSessionHandlers(() => services),
        new Request('http://127.0.0.1/api/admin/session?id=abc', { method: 'DELETE', headers: owner }),
      ),
    );
  });

  it('both healths report degraded with 503 and an actionable message', async () => {
    for (const handlers of [healthHandlers(() => services), variantBHealthHandlers(() => services)]) {
      const response = await call(handlers, get('/api/health'));
      const text = await response.text();
      expect(response.status).toBe(503);
      expect(JSON.parse(text)).toMatchObject({ status: 'degraded', code: 'store_unavailable' });
      expect(text).not.toMatch(INTERNALS);
    }
  });

  it('POST /api/api/chat answers from the model in memory, or 503 when the rate limit must not fail open', async () => {
    const request = () => postJson('http://127.0.0.1/api/api/chat', { message: 'hello' });
    const open = await call(
      variantBChatHandlers(() => services),
      request(),
    );
    expect(open.status).toBe(200);
    const closed = await servicesWithoutStore({ RATE_LIMIT_FAIL_OPEN: 'false' });
    await expectStoreUnavailable(
      await call(
        variantBChatHandlers(() => closed),
        request(),
      ),
    );
  });

  it("POST /api/v1/chat/completions answers 503 in OpenAI's error shape, without internals", async () => {
    const completions = endpoint(
      chatCompletionsHandlers(() => services),
      { renderError: openAIErrorResponse },
    );
    const response = await completions.fetch(
      postJson('http://127.0.0.1/api/v1/chat/completions', {
        model: 'local-instant',
        messages: [{ role: 'user', content: 'hello' }],
      }),
    );
    const text = await response.text();
    expect(response.status, text).toBe(503);
    expect(JSON.parse(text).error.message).toMatch(/cannot reach its data store/);
    expect(text).not.toMatch(INTERNALS);
  });
});
