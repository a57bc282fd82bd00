import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeChunk } from '../../lib/documents/index.js';
import { createEmbeddedStore, namespacedStore } from '../../lib/store/index.js';
import { redisDatabase } from '../support/redis.js';
import {
  ask,
  backends,
  endpoints,
  exported,
  get,
  OWNER,
  ownerHeaders,
  preview,
  production,
  train,
} from './support.js';

const root = resolve(import.meta.dirname, '../..');

describe.each(backends)('cleaning up previews on %s', (_name, sharedStore) => {
  it('lists the preview namespaces with their sizes and deletes one, leaving production and other branches alone', async () => {
    const { root: store, deployment } = await sharedStore();
    const live = deployment(production);
    await train(live, 'The lighthouse keeper lit the lamp.');
    const merged = deployment(preview('feature/merged'));
    await train(merged, 'The quokka lives on Rottnest Island.');
    await ask(merged, 'Where does the quokka live?');
    const open = deployment(preview('still-open'));
    await ask(open, 'hello');
    const admin = endpoints(live).previews;

    const listed = await admin.fetch(get('admin/previews', ownerHeaders));
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as {
      namespace: string;
      corpus: string;
      previews: { namespace: string; keys: number; bytes: number }[];
    };
    expect(body.namespace).toBe('');
    expect(body.previews.map((p) => p.namespace).sort()).toEqual([
      'preview:feature-merged',
      'preview:still-open',
    ]);
    const mergedSize = body.previews.find((p) => p.namespace === 'preview:feature-merged')!;
    expect(mergedSize.keys).toBe((await store.keySizes('preview:feature-merged:')).length);
    expect(mergedSize.bytes).toBeGreaterThan('The quokka lives on Rottnest Island.'.length);

    const deleted = await admin.fetch(get('admin/previews?branch=feature/merged', ownerHeaders, 'DELETE'));
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({
      ok: true,
      namespace: 'preview:feature-merged',
      deletedKeys: mergedSize.keys,
    });
    expect(await store.keySizes('preview:feature-merged:')).toEqual([]);
    expect((await store.keySizes('preview:still-open:')).length).toBeGreaterThan(0);
    expect(await exported(deployment(production))).toBe('The lighthouse keeper lit the lamp.\n');

    const again = await admin.fetch(
      get('admin/previews?namespace=preview:feature-merged', ownerHeaders, 'DELETE'),
    );
    expect(again.status).toBe(404);
    // A running instance of the deleted preview forgets what was deleted, as after a reset
    // (and, running on, writes its sessions anew: delete once its deployments are gone).
    expect(await ask(merged, 'Where does the quokka live?')).not.toMatch(/Rottnest/);
  });

  it('makes a running preview with a corpus of its own start over when its namespace is deleted', async () => {
    const { deployment } = await sharedStore();
    const own = deployment(preview('own-corpus', { PREVIEW_CORPUS: 'own' }));
    await train(own, 'The quokka lives on Rottnest Island.');
    expect(await ask(own, 'Where does the quokka live?')).toMatch(/Rottnest/);
    const deleted = await endpoints(deployment(production)).previews.fetch(
      get('admin/previews?branch=own-corpus', ownerHeaders, 'DELETE'),
    );
    expect(deleted.status).toBe(200);
    expect(await ask(own, 'Where does the quokka live?')).not.toMatch(/Rottnest/);
    expect(await exported(own)).toBe('');
  });

  it('never deletes outside preview namespaces, and only for the owner', async () => {
    const { root: store, deployment } = await sharedStore();
    const live = deployment(production);
    await train(live, 'Production text stays.');
    const admin = endpoints(live).previews;
    for (const query of ['namespace=lm', 'namespace=session-turns', 'namespace=preview:', 'branch=', '']) {
      const response = await admin.fetch(get(`admin/previews?${query}`, ownerHeaders, 'DELETE'));
      expect(response.status, query).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'bad_request' });
    }
    const stranger = await admin.fetch(
      get('admin/previews', { 'X-Owner-Email': OWNER, Authorization: 'Bearer not-the-admin-token-at-all' }),
    );
    expect(stranger.status).toBe(403);
    const chunks = await store.lrange('lm:chunks', 0, -1);
    expect(chunks.map((chunk) => decodeChunk(chunk).text)).toEqual(['Production text stays.']);
  });
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(root, 'scripts/previews.ts'), ...args],
      {
        cwd: root,
        env: { ...process.env, LOG_LEVEL: 'silent', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', fail);
    child.on('exit', (code) => done({ code, out }));
  });
}

describe('npm run previews', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'previews-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lists and deletes a branch in the embedded store of DATA_DIR', async () => {
    const store = createEmbeddedStore({ dataDir });
    await namespacedStore(store, 'preview:feature-quokka').rpush(
      'lm:chunks',
      'The quokka lives on Rottnest.',
    );
    await store.rpush('lm:chunks', 'production');
    await store.close();

    const listed = await runCli(['list'], { DATA_DIR: dataDir });
    expect(listed.code, listed.out).toBe(0);
    expect(listed.out).toMatch(/preview:feature-quokka\s+1\s+/);
    const deleted = await runCli(['delete', 'feature/Quokka'], { DATA_DIR: dataDir });
    expect(deleted.out).toContain('Deleted 1 key(s) under preview:feature-quokka');
    const after = createEmbeddedStore({ dataDir });
    expect(await after.lrange('lm:chunks', 0, -1)).toEqual(['production']);
    await after.close();
  });

  it('works on Upstash from its variables, and refuses a name that is no branch', async () => {
    const database = await redisDatabase();
    await namespacedStore(database.store, 'preview:x').set('a', 'b');
    const env = { UPSTASH_REDIS_REST_URL: database.url, UPSTASH_REDIS_REST_TOKEN: database.token };
    const listed = await runCli(['list', '--json'], env);
    expect(JSON.parse(listed.out)).toEqual([
      { namespace: 'preview:x', keys: 1, bytes: 'preview:x:a'.length + 1 },
    ]);
    const usage = await runCli(['delete'], env);
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('usage: npm run previews');
  });
});
