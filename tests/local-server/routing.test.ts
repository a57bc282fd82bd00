import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';

/** One raw HTTP exchange (fetch refuses TRACE and never sends a body-less HEAD the same way). */
function send(
  url: string,
  method: string,
  path: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('npm start routes as Vercel does, error for error', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'routing-test-'));
  let server: RunningServer;

  beforeAll(async () => {
    server = await startLocalServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['/api/nothing-here', '/api', '/api/api/nothing', '/nothing-here', '/deep/er/page.html'])(
    'answers the same JSON 404 at %s',
    async (path) => {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
      const body = await response.json();
      expect(Object.keys(body).sort()).toEqual(['code', 'error']);
      expect(body).toEqual({ code: 'not_found', error: expect.stringContaining(path) });
    },
  );

  it('still serves public/ files', async () => {
    const page = await fetch(`${server.url}/index.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<');
  });

  it.each(['/api/health', '/api/api/health', '/api/openapi.json', '/'])(
    'answers HEAD on %s with the headers of GET and no body',
    async (path) => {
      const get = await send(server.url, 'GET', path);
      const head = await send(server.url, 'HEAD', path);
      expect(get.status).toBe(200);
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.body).toBe('');
      expect(get.body.length).toBeGreaterThan(0);
    },
  );

  it('lists HEAD beside GET in Allow', async () => {
    const preflight = await fetch(`${server.url}/api/health`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it.each([
    ['TRACE', '/api/health', 'GET, HEAD, OPTIONS'],
    ['TRACE', '/api/chat', 'POST, OPTIONS'],
    ['PROPFIND', '/api/train', 'POST, OPTIONS'],
    ['PATCH', '/api/api/chat', 'POST, OPTIONS'],
    ['HEAD', '/api/chat', 'POST, OPTIONS'],
  ])('answers %s %s with a JSON 405 and Allow', async (method, path, allow) => {
    const response = await send(server.url, method, path);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe(allow);
    if (method === 'HEAD') return;
    expect(response.headers['content-type']).toContain('application/json');
    expect(JSON.parse(response.body)).toMatchObject({
      code: 'method_not_allowed',
      error: expect.stringContaining(method),
    });
  });

  it('answers a method other than GET or HEAD on a public/ file with a JSON 405', async () => {
    const response = await send(server.url, 'POST', '/index.html');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(response.body)).toMatchObject({ code: 'method_not_allowed' });
  });

  it('answers CONNECT with a JSON 405 instead of dropping the connection', async () => {
    const { hostname, port } = new URL(server.url);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 405 /);
    const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toMatchObject({ code: 'method_not_allowed' });
  });
});
