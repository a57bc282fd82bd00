import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChunk } from '../../lib/documents/index.js';
import { createEmbeddedStore, STORE_FILE } from '../../lib/store/index.js';
import { trainingKeys } from '../../lib/training/keys.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { startWikipediaStandin, type WikipediaStandin } from '../support/wikipedia-standin.js';

const SESSION_LIMIT = 20;
const RATE_LIMIT = 100;

/**
 * What `vercel dev` does (one process per request) and what two `npm start`s on one folder do:
 * two local servers on one DATA_DIR, sent requests in parallel, alternating between them.
 */
describe('Two server processes on one DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'two-processes-'));
  let wikipedia: WikipediaStandin;
  let servers: RunningServer[] = [];

  beforeAll(async () => {
    wikipedia = await startWikipediaStandin();
    const env = {
      DATA_DIR: dataDir,
      SESSION_LIMIT_FREE: String(SESSION_LIMIT),
      RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
      // one day, so the test never straddles two windows in practice
      RATE_LIMIT_WINDOW_SECONDS: '86400',
      RATE_LIMIT_FAIL_OPEN: 'false',
      WIKIPEDIA_BASE_URL: wikipedia.baseUrl,
    };
    servers = await Promise.all([startLocalServer(env), startLocalServer(env)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await wikipedia?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (index: number, path: string, body: unknown) =>
    fetch(`${servers[index % 2]!.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('keeps every acknowledged train, counts a session exactly and rate-limits exactly', async () => {
    // 30 parallel trains: every one acknowledged is kept, once
    const texts = Array.from(
      { length: 30 },
      (_, index) => `Parallel text number ${index} teaches the word token${index} to the model.`,
    );
    const trains = await Promise.all(texts.map((text, index) => post(index, '/api/train', { text })));
    const trainStatuses = trains.map((response) => response.status);
    expect(trainStatuses.filter((status) => status === 200)).toHaveLength(30);
    const store = createEmbeddedStore({ dataDir });
    const kept = await store.lrange(trainingKeys.chunks, 0, -1);
    expect(kept.map((chunk) => decodeChunk(chunk).text).sort()).toEqual([...texts].sort());
    expect(await store.hgetall(trainingKeys.stats)).toMatchObject({
      characters: String(texts.reduce((sum, text) => sum + text.length, 0)),
    });

    // a session limited to 20: 30 parallel messages over both processes, exactly 20 let through
    const chats = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        post(index, '/api/chat', { message: `hello number ${index}`, sessionId: 'shared-session' }),
      ),
    );
    const chatCodes = await Promise.all(
      chats.map(async (response) => (response.status === 200 ? 'ok' : (await response.json()).code)),
    );
    expect(chatCodes.filter((code) => code === 'ok')).toHaveLength(SESSION_LIMIT);
    expect(chatCodes.filter((code) => code === 'session_limit')).toHaveLength(30 - SESSION_LIMIT);
    expect(await store.get('session-count:shared-session')).toBe('30');

    // the address has used 60 of its 100 requests: of 60 more, exactly 40 pass
    const more = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        post(index, '/api/chat', { message: 'one more', sessionId: `own-session-${index}` }),
      ),
    );
    const moreCodes = await Promise.all(
      more.map(async (response) => (response.status === 200 ? 'ok' : (await response.json()).code)),
    );
    expect(moreCodes.filter((code) => code === 'ok')).toHaveLength(RATE_LIMIT - 60);
    expect(moreCodes.filter((code) => code === 'rate_limited')).toHaveLength(20);

    // both processes see the same vocabulary
    const healths = await Promise.all(
      servers.map(async (server) => (await fetch(`${server.url}/api/health`)).json()),
    );
    expect(healths[0].vocabSize).toBe(healths[1].vocabSize);
    expect(healths[0].vocabSize).toBe(await store.scard(trainingKeys.vocabulary));
    await store.close();
  }, 120_000);
});

describe('A server on a damaged store file', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'damaged-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start with one line naming the file, keeps it aside and writes nothing', async () => {
    const server = await startLocalServer({ DATA_DIR: dataDir });
    const trained = await fetch(`${server.url}/api/train`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Words that must not be lost silently. '.repeat(2000) }),
    });
    expect(trained.status).toBe(200);
    expect(await server.stop()).toBe(0);
    const path = join(dataDir, STORE_FILE);
    const file = readFileSync(path);
    file.set(Buffer.from('JUNKJUNK!'), Math.floor(file.length / 2));
    writeFileSync(path, file);

    const start = () =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/serve.ts'], {
        cwd: resolve(import.meta.dirname, '../..'),
        env: { ...process.env, PORT: '4999', DATA_DIR: dataDir },
        encoding: 'utf8',
        timeout: 20_000,
      });
    const first = start();
    expect(first.status).toBe(1);
    const lines = first.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(path);
    expect(lines[0]).toMatch(/is damaged .* moved aside to .*store\.db\.damaged-.* the service stops/);
    const aside = readdirSync(dataDir).filter(
      (name) => name.startsWith(`${STORE_FILE}.damaged-`) && !/-(wal|shm)$/.test(name),
    );
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dataDir, aside[0]!)).equals(file)).toBe(true);
    expect(existsSync(path)).toBe(false);

    const second = start();
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/kept aside .* will not start on an empty store/);
    expect(existsSync(path)).toBe(false);
  }, 60_000);
});
