import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';

/** Sends raw bytes and resolves with everything the server answers before it closes. */
function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', (error) => (answer ? resolve(answer) : reject(error)));
    socket.write(request);
  });
}

describe('npm start and requests its HTTP parser refuses', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'client-errors-'));
  let server: RunningServer;
  beforeAll(async () => {
    server = await startLocalServer({ DATA_DIR: dataDir });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a 64 KB header with 431 and a JSON error, not a reset, and keeps serving', async () => {
    const answer = await rawExchange(
      server.url,
      `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ code: 'headers_too_large', error: expect.stringMatching(/headers/) });

    const viaFetch = await fetch(`${server.url}/api/health`, {
      headers: { 'X-Padding': 'b'.repeat(64 * 1024) },
    });
    expect(viaFetch.status).toBe(431);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('answers a request line that is not HTTP with a JSON 400', async () => {
    const answer = await rawExchange(server.url, 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'bad_request' });
  });
});
