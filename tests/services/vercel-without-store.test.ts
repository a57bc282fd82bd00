import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig, resetConfig, STORE_VARIABLES } from '../../lib/config/index.js';
import type { Endpoint } from '../../lib/http/index.js';
import { loadRoutes } from '../../lib/local-server/index.js';
import { createServices, storeUnconfigured } from '../../lib/services/index.js';

const apiDir = resolve(import.meta.dirname, '../../api');

describe('a Vercel deployment without Upstash/KV credentials', () => {
  const parent = mkdtempSync(join(tmpdir(), 'vercel-no-store-'));
  const dataDir = join(parent, 'data');
  const saved = { ...process.env };
  let routes: Map<string, Endpoint>;
  const errorLines: string[] = [];

  beforeAll(async () => {
    for (const name of STORE_VARIABLES) delete process.env[name];
    delete process.env.VERCEL_ENV;
    process.env.VERCEL = '1';
    process.env.DATA_DIR = dataDir;
    process.env.LOG_LEVEL = 'error';
    resetConfig();
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
      errorLines.push(String(line));
    });
    routes = await loadRoutes(apiDir);
  });
  afterAll(() => {
    vi.restoreAllMocks();
    process.env = saved;
    resetConfig();
    rmSync(parent, { recursive: true, force: true });
  });

  async function call(path: string, method: string): Promise<Response> {
    const route = routes.get(path);
    if (!route) throw new Error(`no route ${path}`);
    const body =
      method === 'POST' ? JSON.stringify({ message: 'hello', text: 'Some words to learn.' }) : null;
    return route.fetch(
      new Request(`http://test${path}?id=${'0'.repeat(64)}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-Owner-Email': 'owner@example.com' },
        body,
      }),
    );
  }

  it('answers 503 store_unconfigured naming the variables on every method of every endpoint that needs the store', async () => {
    let calls = 0;
    for (const path of routes.keys()) {
      if (path === '/api/openapi.json' || path.endsWith('/health')) continue;
      const preflight = await call(path, 'OPTIONS');
      expect(preflight.status, path).toBe(204);
      const methods = (preflight.headers.get('allow') ?? '').split(/,\s*/).filter((m) => m !== 'OPTIONS');
      for (const method of methods) {
        const response = await call(path, method);
        expect(response.status, `${method} ${path}`).toBe(503);
        if (method === 'HEAD') continue;
        const body = await response.json();
        // Our `{ error, code }`, or OpenAI's `{ error: { message, code } }` on /api/v1.
        const { code, message } =
          typeof body.error === 'object' ? body.error : { code: body.code, message: body.error };
        expect(code, `${method} ${path}`).toBe('store_unconfigured');
        expect(message).toContain('UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN');
        expect(message).toContain('KV_REST_API_URL/KV_REST_API_TOKEN');
        calls++;
      }
    }
    expect(calls).toBeGreaterThanOrEqual(8);
  });

  it('reports it on both health endpoints as degraded with a 503', async () => {
    const a = await call('/api/health', 'GET');
    expect(a.status).toBe(503);
    expect(await a.json()).toMatchObject({
      status: 'degraded',
      vocabSize: null,
      store: 'none',
      code: 'store_unconfigured',
      error: expect.stringContaining('UPSTASH_REDIS_REST_TOKEN'),
    });
    const b = await call('/api/api/health', 'GET');
    expect(b.status).toBe(503);
    expect(await b.json()).toMatchObject({
      status: 'degraded',
      model: expect.any(String),
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
      code: 'store_unconfigured',
    });
  });

  it('still serves the OpenAPI document, which needs no store', async () => {
    expect((await call('/api/openapi.json', 'GET')).status).toBe(200);
  });

  it('logs it once per instance and never creates the data folder', async () => {
    await call('/api/chat', 'POST');
    const logged = errorLines.filter((line) => line.includes('"event":"store_unconfigured"'));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({
      level: 'error',
      message: expect.stringContaining('UPSTASH'),
    });
    expect(errorLines.filter((line) => line.includes('"event":"unhandled"'))).toEqual([]);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('choosing the store', () => {
  it('keeps the embedded store under `vercel dev` (VERCEL_ENV=development) and with credentials', () => {
    expect(storeUnconfigured(parseConfig({ VERCEL: '1', VERCEL_ENV: 'development' }))).toBeUndefined();
    expect(storeUnconfigured(parseConfig({}))).toBeUndefined();
    const withKv = parseConfig({
      VERCEL: '1',
      KV_REST_API_URL: 'https://kv.example',
      KV_REST_API_TOKEN: 't',
    });
    expect(storeUnconfigured(withKv)).toBeUndefined();
  });

  it('refuses to build services for a preview or production deployment without credentials', () => {
    for (const env of [
      { VERCEL: '1' },
      { VERCEL: '1', VERCEL_ENV: 'preview' },
      { VERCEL: '1', VERCEL_ENV: 'production' },
    ]) {
      expect(() => createServices(parseConfig(env))).toThrow(/UPSTASH_REDIS_REST_URL/);
    }
  });
});
