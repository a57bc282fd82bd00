import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverRoutes } from '../../lib/local-server/index.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { readReplyStream } from '../support/sse.js';

describe('npm start (local server)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'serve-test-'));
  let server: RunningServer;

  beforeAll(async () => {
    server = await startLocalServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('routes files as Vercel does: api/<path>.ts at /api/<path>', () => {
    const routes = [...discoverRoutes(resolve(import.meta.dirname, '../../api')).keys()];
    expect(routes).toEqual(
      expect.arrayContaining([
        '/api/chat',
        '/api/train',
        '/api/upload',
        '/api/health',
        '/api/api/chat',
        '/api/api/health',
      ]),
    );
  });

  it('prints the URL it listens on and answers both health endpoints', async () => {
    expect(server.output()).toMatch(/Listening on http:\/\/localhost:\d+/);
    const a = await fetch(`${server.url}/api/health`);
    expect(a.status).toBe(200);
    expect(await a.json()).toMatchObject({ status: 'ok', store: 'embedded', vocabSize: expect.any(Number) });
    const b = await fetch(`${server.url}/api/api/health`);
    expect(await b.json()).toMatchObject({
      status: 'ok',
      model: expect.any(String),
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
    });
  });

  it('streams chat replies of both variants as server-sent events, unbuffered', async () => {
    await fetch(`${server.url}/api/train`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        text: 'The river flows to the sea. The sea is wide and the light is on the sea.',
      }),
    });
    for (const [path, body] of [
      ['/api/chat', { message: 'Tell me of the sea', sessionId: 'serve-stream' }],
      ['/api/api/chat', { message: 'Tell me of the sea' }],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(response.headers.get('content-length')).toBeNull();
      const { deltas, done } = await readReplyStream(response);
      expect(done).toHaveLength(1);
      expect(deltas.join('')).toBe(done[0]!.response);
    }
  });

  it('serves public/ at / and a JSON 404 for unknown API paths', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const missing = await fetch(`${server.url}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
    const traversal = await fetch(`${server.url}/..%2Fpackage.json`);
    expect(traversal.status).toBe(404);
  });

  it('keeps what it learned across a restart (embedded store under DATA_DIR)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-restart-'));
    const first = await startLocalServer({ DATA_DIR: dir });
    const trained = await fetch(`${first.url}/api/train`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Seven words learned here survive a restart.' }),
    });
    expect(trained.status).toBe(200);
    const { vocabSize } = await trained.json();
    expect(await first.stop()).toBe(0);
    const second = await startLocalServer({ DATA_DIR: dir });
    const health = await (await fetch(`${second.url}/api/health`)).json();
    expect(health.vocabSize).toBe(vocabSize);
    const chat = await fetch(`${second.url}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: 'what survives?' }),
    });
    expect((await chat.json()).vocabSize).toBe(vocabSize);
    await second.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops cleanly on Ctrl-C', async () => {
    const second = await startLocalServer({ DATA_DIR: dataDir });
    expect(await second.stop()).toBe(0);
  });

  it('refuses to start with an invalid variable, naming it', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
      cwd: resolve(import.meta.dirname, '../..'),
      env: { ...process.env, PORT: 'abc', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/PORT: must be a whole number/);
  });
});
