import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeChunk, forgottenIdOf } from '../../lib/documents/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import { trainingKeys } from '../../lib/training/index.js';
import { liveTexts } from '../../lib/training/model-keeper.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'documents-crash-'));
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

const ENV = { DATA_DIR: dataDir, STARTER_TEXT: 'off', RATE_LIMIT_REQUESTS: '100000' };
const DOCS = Array.from({ length: 24 }, (_, i) => ({
  documentId: `folder/file-${i}.md`,
  format: 'markdown',
  text: `# File ${i}\n\n${`File ${i} teaches the word marker${i} and a long line of ordinary prose. `.repeat(400)}`,
}));

/** Sends a document until it lands: a 409 train_in_progress (a claim the crashed server left) is retried after Retry-After. */
async function sendUntilLanded(server: RunningServer, body: object): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await fetch(`${server.url}/api/train`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (response.status === 200) return answer.status;
    expect(response.status).toBe(409);
    expect(answer.code).toBe('train_in_progress');
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000));
  }
  throw new Error('never landed');
}

describe('kill -9 of the server during a folder run', () => {
  it('re-running the folder after a restart stores each document exactly once', async () => {
    const first = await startLocalServer(ENV);
    const exited = once(first.child, 'exit');
    const sent = DOCS.map((doc) =>
      fetch(`${first.url}/api/train`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(doc),
      }).then(
        (response) => response.status,
        () => 'lost',
      ),
    );
    // Kill it once a few documents have landed, with others in flight.
    const store = createEmbeddedStore({ dataDir });
    while ((await store.llen(trainingKeys.chunks)) < 3)
      await new Promise((resolve) => setTimeout(resolve, 20));
    first.child.kill('SIGKILL');
    await Promise.all(sent);
    await exited;

    const second = await startLocalServer(ENV);
    servers.push(second);
    const statuses: string[] = [];
    for (const doc of DOCS) statuses.push(await sendUntilLanded(second, doc));
    expect(statuses.every((status) => status === 'trained' || status === 'unchanged')).toBe(true);
    expect(statuses).toContain('unchanged');
    // Run again: nothing changes.
    for (const doc of DOCS) expect(await sendUntilLanded(second, doc)).toBe('unchanged');

    const chunks = await store.lrange(trainingKeys.chunks, 0, -1);
    expect(chunks.some((chunk) => forgottenIdOf(chunk) !== undefined)).toBe(false);
    const ids = chunks.map((chunk) => decodeChunk(chunk).documentId).sort();
    expect(ids).toEqual(DOCS.map((doc) => doc.documentId).sort());
    expect(liveTexts(chunks)).toHaveLength(DOCS.length);
    await store.close();
  }, 120_000);
});
