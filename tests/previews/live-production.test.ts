import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { redisDatabase } from '../support/redis.js';

const OWNER = 'owner@example.com';
const ADMIN_TOKEN = 'live-preview-admin-token-0123456789';
const owner = { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ADMIN_TOKEN}` };
const QUOKKA = 'The quokka lives on Rottnest Island near Perth.';
const NARWHAL = 'The narwhal lives in the Arctic Ocean and has a long tusk.';
/** How soon a preview must answer from production's new training. */
const CATCH_UP_MS = 5000;

const dataDir = mkdtempSync(join(tmpdir(), 'live-preview-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function post(server: RunningServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function ask(server: RunningServer, message: string): Promise<{ response: string; thought: string }> {
  const response = await post(server, 'chat', { message });
  expect(response.status).toBe(200);
  return (await response.json()) as { response: string; thought: string };
}

async function exported(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/api/admin/export`, { headers: owner });
  expect(response.status).toBe(200);
  return response.text();
}

describe.each([
  ['the embedded store (one DATA_DIR)', async () => ({ DATA_DIR: join(dataDir, 'shared') })],
  [
    'Redis through the Upstash REST bridge',
    async () => {
      const database = await redisDatabase();
      return { UPSTASH_REDIS_REST_URL: database.url, UPSTASH_REDIS_REST_TOKEN: database.token };
    },
  ],
])('a preview over production, two servers on %s', (_, storeEnv) => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it("answers from production's training made after it started, within 5 s, and never writes to production", async () => {
    const env = { ...(await storeEnv()), STARTER_TEXT: 'off', OWNER_EMAIL: OWNER, ADMIN_TOKEN };
    const production = await startLocalServer(env);
    servers.push(production);
    const preview = await startLocalServer({
      ...env,
      STORE_NAMESPACE: 'preview:live',
      PREVIEW_CORPUS: 'production',
    });
    servers.push(preview);

    // The preview is up, has its own training and has answered before production trains.
    expect((await post(preview, 'train', { text: QUOKKA })).status).toBe(200);
    expect((await ask(preview, 'Where does the quokka live?')).response).toMatch(/Rottnest/);
    const before = await ask(preview, 'Where does the narwhal live?');
    expect(before.thought).toMatch(/never taught: narwhal/);

    expect((await post(production, 'train', { text: NARWHAL })).status).toBe(200);
    const trainedAt = Date.now();
    let reply = before;
    while (Date.now() - trainedAt < CATCH_UP_MS * 2) {
      reply = await ask(preview, 'What does the narwhal have?');
      // Vocabulary and passages agree: the word is either unknown to both or found in a passage.
      expect(/never taught: narwhal/.test(reply.thought) && /tusk/.test(reply.response)).toBe(false);
      if (/tusk/.test(reply.response)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const caughtUpMs = Date.now() - trainedAt;
    console.log(`preview answered from production's new training after ${caughtUpMs} ms`);
    expect(reply.response).toMatch(/tusk/);
    expect(reply.thought).not.toMatch(/never taught/);
    expect(caughtUpMs).toBeLessThan(CATCH_UP_MS);

    // The preview's corpus is production's then its own; production's holds only its own training.
    expect(await exported(preview)).toBe(`${NARWHAL}\n\n${QUOKKA}\n`);
    expect(await exported(production)).toBe(`${NARWHAL}\n`);
    expect((await ask(production, 'Where does the quokka live?')).response).not.toMatch(/Rottnest/);

    // Production trains again: the preview keeps up with its own chunk still after production's.
    expect((await post(production, 'train', { text: 'The walrus rests on Arctic ice floes.' })).status).toBe(
      200,
    );
    expect((await ask(preview, 'Where does the walrus rest?')).response).toMatch(/ice floes/);
    expect((await ask(preview, 'Where does the quokka live?')).response).toMatch(/Rottnest/);
  }, 90_000);
});
