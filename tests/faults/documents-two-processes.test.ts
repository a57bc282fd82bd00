import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { redisDatabase } from '../support/redis.js';

const OWNER = { 'x-owner-email': 'owner@example.org', authorization: 'Bearer admin-token-for-tests' };
const BASE_ENV = {
  OWNER_EMAIL: 'owner@example.org',
  ADMIN_TOKEN: 'admin-token-for-tests',
  STARTER_TEXT: 'off',
  RATE_LIMIT_REQUESTS: '1000',
};
const DOCS: Record<string, string> = {
  'guide/ports.md': '# Ports\n\nThe relay listens on port 7311.\n',
  'guide/quokka.md': '# Quokka\n\nThe quokka cluster forwards every request twice.\n',
  'guide/narwhal.md': '# Narwhal\n\nThe narwhal index compacts its table nightly.\n',
};

const dirs: string[] = [];
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const call = (server: RunningServer, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...OWNER, ...(init.headers as Record<string, string>) },
  });
const train = (server: RunningServer, body: unknown) =>
  call(server, '/api/train', { method: 'POST', body: JSON.stringify(body) });
const exported = async (server: RunningServer) => (await call(server, '/api/admin/export')).text();
const vocabSize = async (server: RunningServer) =>
  (await (await call(server, '/api/health')).json()).vocabSize;
const sourcesFor = async (server: RunningServer, message: string) => {
  const reply = await (
    await call(server, '/api/chat', { method: 'POST', body: JSON.stringify({ message, sessionId: 'probe' }) })
  ).json();
  return JSON.stringify(reply.sources ?? []) + reply.response;
};

async function storeEnvs(): Promise<{ name: string; env: () => Promise<Record<string, string>> }[]> {
  return [
    {
      name: 'the embedded store (one DATA_DIR)',
      env: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'documents-two-'));
        dirs.push(dir);
        return { DATA_DIR: dir };
      },
    },
    {
      name: 'Upstash (one Redis database through the bridge)',
      env: async () => {
        const database = await redisDatabase();
        return { UPSTASH_REDIS_REST_URL: database.url, UPSTASH_REDIS_REST_TOKEN: database.token };
      },
    },
  ];
}

describe.each(await storeEnvs())('two server processes on $name', ({ env }) => {
  it('forget a replaced and a deleted document on both, equal to a fresh store trained on the rest', async () => {
    const shared = { ...BASE_ENV, ...(await env()) };
    const [one, two] = await Promise.all([startLocalServer(shared), startLocalServer(shared)]);
    servers.push(one!, two!);
    for (const [documentId, text] of Object.entries(DOCS)) {
      expect((await train(one!, { text, documentId, format: 'markdown' })).status).toBe(200);
    }
    expect(await sourcesFor(two!, 'Which port does the relay listen on?')).toContain('7311');

    const replaced = await train(two!, {
      text: DOCS['guide/ports.md']!.replace('7311', '9422'),
      documentId: 'guide/ports.md',
      format: 'markdown',
    });
    expect(await replaced.json()).toMatchObject({ status: 'replaced' });
    const deleted = await call(one!, `/api/admin/documents?id=${encodeURIComponent('guide/quokka.md')}`, {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(200);

    for (const server of [one!, two!]) {
      const corpus = await exported(server);
      expect(corpus).not.toContain('7311');
      expect(corpus).not.toContain('quokka');
      expect(await sourcesFor(server, 'Which port does the relay listen on?')).not.toContain('7311');
      expect(await sourcesFor(server, 'What does the quokka cluster forward?')).not.toContain('twice');
    }

    const fresh = await startLocalServer({ ...BASE_ENV, ...(await env()) });
    servers.push(fresh);
    await train(fresh, {
      text: DOCS['guide/narwhal.md'],
      documentId: 'guide/narwhal.md',
      format: 'markdown',
    });
    await train(fresh, {
      text: DOCS['guide/ports.md']!.replace('7311', '9422'),
      documentId: 'guide/ports.md',
      format: 'markdown',
    });
    const expected = await vocabSize(fresh);
    expect(await vocabSize(one!)).toBe(expected);
    expect(await vocabSize(two!)).toBe(expected);
    expect(await exported(two!)).toBe(await exported(fresh));
  }, 90_000);
});
