import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/config/index.js';
import { healthHandlers } from '../../lib/health/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { createServices } from '../../lib/services/index.js';
import { createEmbeddedStore, upstashStore } from '../../lib/store/index.js';
import { variantBHealthHandlers } from '../../lib/variant-b/handlers.js';
import packageJson from '../../package.json' with { type: 'json' };
import { redisDatabase } from '../support/redis.js';
import { freePort } from '../support/redis-server.js';

const get = (path: string) => new Request(`http://test${path}`);

describe('GET /api/health', () => {
  it('reports ok, the vocabulary size and the store on the embedded store', async () => {
    const services = createServices(parseConfig({}), { store: createEmbeddedStore() });
    await services.store.sadd('lm:vocab', 'in', 'the', 'beginning');
    const response = await endpoint(healthHandlers(() => services)).fetch(get('/api/health'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      vocabSize: 3,
      store: 'embedded',
      version: packageJson.version,
    });
  });

  it('tells the owner how to teach the service, and a visitor nothing of it', async () => {
    const services = createServices(
      parseConfig({ OWNER_EMAIL: 'owner@example.com', ADMIN_TOKEN: 'a-long-enough-admin-token-1234' }),
      { store: createEmbeddedStore() },
    );
    const api = endpoint(healthHandlers(() => services));
    const visitor = await (await api.fetch(get('/api/health'))).json();
    expect(visitor.howToTeach).toBeUndefined();
    const owner = await api.fetch(
      new Request('http://test/api/health', {
        headers: {
          'x-owner-email': 'owner@example.com',
          authorization: 'Bearer a-long-enough-admin-token-1234',
        },
      }),
    );
    expect((await owner.json()).howToTeach).toMatch(/train/);
    const wrong = await api.fetch(
      new Request('http://test/api/health', {
        headers: { 'x-owner-email': 'owner@example.com', authorization: 'Bearer wrong-token-wrong-token-00' },
      }),
    );
    expect(wrong.status).toBe(403);
  });

  it('reports ok on Upstash Redis', async () => {
    const { store } = await redisDatabase();
    const services = createServices(parseConfig({}), { store });
    const response = await endpoint(healthHandlers(() => services)).fetch(get('/api/health'));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', vocabSize: 0, store: 'upstash' });
  });

  it('answers 503 degraded, saying what to do without the backend error, when the store cannot be reached', async () => {
    const port = await freePort();
    const store = upstashStore({ url: `http://127.0.0.1:${port}`, token: 'x', retries: 0 });
    const services = createServices(parseConfig({}), {
      store,
      limiter: { limit: async () => ({ success: true, limit: 1, remaining: 1, reset: 0 }) },
    });
    const response = await endpoint(healthHandlers(() => services)).fetch(get('/api/health'));
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body).toMatchObject({ status: 'degraded', code: 'store_unavailable', store: 'upstash' });
    expect(body.error).toMatch(/cannot reach its data store/);
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|fetch failed|127\.0\.0\.1/);
  });
});

describe('GET /api/api/health', () => {
  it('returns status, the answering model and the package version', async () => {
    const services = createServices(parseConfig({}), { store: createEmbeddedStore() });
    const response = await endpoint(variantBHealthHandlers(() => services)).fetch(get('/api/api/health'));
    const body = await response.json();
    expect(body).toEqual({ status: 'ok', model: 'kneser-ney-4gram', version: packageJson.version });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('names the external model when one is configured', async () => {
    const config = parseConfig({ LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'tiny-chat' });
    const services = createServices(config, { store: createEmbeddedStore() });
    const response = await endpoint(variantBHealthHandlers(() => services)).fetch(get('/api/api/health'));
    expect((await response.json()).model).toContain('tiny-chat');
  });
});
