import { describe, expect, it } from 'vitest';
import { adminDocumentsHandlers, adminExportHandlers } from '../../lib/admin/index.js';
import { endpoint } from '../../lib/http/index.js';
import type { NgramModel } from '../../lib/lm/index.js';
import type { Services } from '../../lib/services/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { trainingKeys } from '../../lib/training/index.js';
import { embeddedServices, postJson, redisServices } from '../support/services.js';

const TRAIN = 'http://127.0.0.1/api/train';
const OWNER = { 'x-owner-email': 'owner@example.org', authorization: 'Bearer admin-token-for-tests' };
const ADMIN_ENV = { OWNER_EMAIL: 'owner@example.org', ADMIN_TOKEN: 'admin-token-for-tests' };

const DOCS = {
  alpha: 'The alpha service listens on port 7311.\nAlpha keeps its logs in the alpha folder.',
  beta: 'The beta gateway forwards requests to the quokka cluster.\nBeta retries three times.',
  gamma: 'Gamma stores every narwhal record in a compact table.\nGamma compacts the table nightly.',
};

type Backend = { name: string; make: (env?: Record<string, string>) => Promise<Services> };
const backends: Backend[] = [
  { name: 'embedded', make: async (env = {}) => embeddedServices({ ...ADMIN_ENV, ...env }) },
  { name: 'Upstash (Redis through the bridge)', make: (env = {}) => redisServices({ ...ADMIN_ENV, ...env }) },
];

function api(services: Services) {
  const train = endpoint(trainHandlers(() => services));
  const documents = endpoint(adminDocumentsHandlers(() => services));
  const exporter = endpoint(adminExportHandlers(() => services));
  return {
    train: (body: unknown, headers: Record<string, string> = {}) =>
      train.fetch(postJson(TRAIN, body, headers)),
    list: (query = '', headers = OWNER) =>
      documents.fetch(new Request(`http://127.0.0.1/api/admin/documents${query}`, { headers })),
    remove: (id: string, headers: Record<string, string> = OWNER) =>
      documents.fetch(
        new Request(`http://127.0.0.1/api/admin/documents?id=${encodeURIComponent(id)}`, {
          method: 'DELETE',
          headers,
        }),
      ),
    exported: async () =>
      (await exporter.fetch(new Request('http://127.0.0.1/api/admin/export', { headers: OWNER }))).text(),
  };
}

async function arpaOf(services: Services): Promise<string> {
  return ((await services.model.current()) as NgramModel).toArpa();
}

async function passagesOf(services: Services): Promise<string[]> {
  return (await services.model.knowledge()).passages.allTexts();
}

describe.each(backends)('documents with ids on the $name store', ({ make }) => {
  it('trains, answers unchanged for the same content, and replaces on new content', async () => {
    const services = await make();
    const { train } = api(services);
    const first = await train({ text: DOCS.alpha, documentId: 'docs/alpha.md', format: 'markdown' });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ ok: true, documentId: 'docs/alpha.md', status: 'trained' });
    const chunks = await services.store.llen(trainingKeys.chunks);

    const again = await train({ text: DOCS.alpha, documentId: 'docs/alpha.md', format: 'markdown' });
    expect(await again.json()).toMatchObject({ documentId: 'docs/alpha.md', status: 'unchanged', tokens: 0 });
    expect(await services.store.llen(trainingKeys.chunks)).toBe(chunks);

    const edited = DOCS.alpha.replace('7311', '9422');
    const replaced = await train({ text: edited, documentId: 'docs/alpha.md', format: 'markdown' });
    expect(await replaced.json()).toMatchObject({ documentId: 'docs/alpha.md', status: 'replaced' });
    const texts = (await passagesOf(services)).join('\n');
    expect(texts).toContain('9422');
    expect(texts).not.toContain('7311');
    const exported = await api(services).exported();
    expect(exported).toContain('9422');
    expect(exported).not.toContain('7311');
  });

  it('gives plain text the id text-<first 16 hex of its SHA-256> and learns it once', async () => {
    const services = await make();
    const { train } = api(services);
    const text = 'Plain text without an id teaches the wombat fact once.';
    const { createHash } = await import('node:crypto');
    const id = `text-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    expect(await (await train({ text })).json()).toMatchObject({ documentId: id, status: 'trained' });
    expect(await (await train({ text })).json()).toMatchObject({ documentId: id, status: 'unchanged' });
    expect((await api(services).exported()).match(/wombat/g)).toHaveLength(1);
  });

  it('forgets exactly: after a delete, ARPA, vocabulary, passages and export equal a fresh store trained on the rest', async () => {
    const services = await make();
    const other = await make();
    const { train, remove } = api(services);
    for (const [id, text] of Object.entries(DOCS))
      expect((await train({ text, documentId: id })).status).toBe(200);
    const deleted = await remove('beta');
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: 'beta' });

    const fresh = api(other);
    for (const id of ['alpha', 'gamma'] as const) await fresh.train({ text: DOCS[id], documentId: id });
    expect(await arpaOf(services)).toBe(await arpaOf(other));
    expect(await services.model.vocabSize()).toBe(await other.model.vocabSize());
    expect(await passagesOf(services)).toEqual(await passagesOf(other));
    expect(await api(services).exported()).toBe(await fresh.exported());
    expect(await api(services).exported()).not.toContain('quokka');
  });

  it('refuses an HTML page that only redirects with 400 naming where it points, and learns nothing', async () => {
    const services = await make();
    const { train } = api(services);
    const alias =
      '<html><head><meta http-equiv="refresh" content="0; url=Output-Formats.html">' +
      '<title>Alternate Names</title></head><body><p>The node you are looking for is at ' +
      '<a href="Output-Formats.html">Alternate Names</a>.</p></body></html>';
    const response = await train({ text: alias, format: 'html', documentId: 'Alternate-Names.html' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'validation_failed',
      error: 'text: the page only redirects to Output-Formats.html; train the page it points to instead',
    });
    expect(await services.store.llen(trainingKeys.chunks)).toBe(0);
  });

  it('rejects a bad documentId, url, sha256 or part with 400 and learns nothing', async () => {
    const services = await make();
    const { train } = api(services);
    const bad = [
      { text: 'x y z', documentId: '' },
      { text: 'x y z', documentId: 'a'.repeat(201) },
      { text: 'x y z', documentId: 'line\nbreak' },
      { text: 'x y z', documentId: 'nul\u0000' },
      { text: 'x y z', documentId: '   ' },
      { text: 'x y z', documentId: 7 },
      { text: 'x y z', url: 'ftp://example.org/a' },
      { text: 'x y z', url: 'javascript:alert(1)' },
      { text: 'x y z', url: 'not a url' },
      { text: 'x y z', sha256: 'abc' },
      { text: 'x y z', part: 1 },
      { text: 'x y z', part: 3, parts: 2, documentId: 'p', sha256: 'a'.repeat(64) },
      { text: 'x y z', part: 1, parts: 2 },
      { text: 'x y z', part: 0, parts: 2, documentId: 'p', sha256: 'a'.repeat(64) },
    ];
    for (const body of bad) {
      const response = await train(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).code).toBe('validation_failed');
    }
    expect(await services.store.llen(trainingKeys.chunks)).toBe(0);
    expect(
      (await train({ text: 'x y z', documentId: 'a'.repeat(200), url: 'https://example.org/x' })).status,
    ).toBe(200);
  });
});

describe('forgetting on every instance', () => {
  it('a second instance on the same embedded store forgets what the first deleted and replaced', async () => {
    const store = createEmbeddedStore();
    await secondInstanceForgets(
      embeddedServices(ADMIN_ENV, { store }),
      embeddedServices(ADMIN_ENV, { store }),
    );
  });

  it('a second instance on the same Redis database forgets what the first deleted and replaced', async () => {
    const one = await redisServices(ADMIN_ENV);
    const { parseConfig } = await import('../../lib/config/index.js');
    const { createServices } = await import('../../lib/services/index.js');
    const two = createServices(
      parseConfig({
        ...ADMIN_ENV,
        STARTER_TEXT: 'off',
        UPSTASH_REDIS_REST_URL: one.redisUrl,
        UPSTASH_REDIS_REST_TOKEN: one.redisToken,
      }),
      { store: one.store },
    );
    await secondInstanceForgets(one, two);
  });
});

async function secondInstanceForgets(one: Services, two: Services): Promise<void> {
  for (const [id, text] of Object.entries(DOCS)) await api(one).train({ text, documentId: id });
  expect((await passagesOf(two)).join(' ')).toContain('quokka');
  await api(one).remove('beta');
  await api(one).train({ text: DOCS.alpha.replace('7311', '9422'), documentId: 'alpha' });
  const texts = (await passagesOf(two)).join(' ');
  expect(texts).not.toContain('quokka');
  expect(texts).not.toContain('7311');
  expect(await arpaOf(two)).toBe(await arpaOf(one));
  expect(await two.model.vocabSize()).toBe(await one.model.vocabSize());
  const fresh = embeddedServices(ADMIN_ENV);
  await api(fresh).train({ text: DOCS.gamma, documentId: 'gamma' });
  await api(fresh).train({ text: DOCS.alpha.replace('7311', '9422'), documentId: 'alpha' });
  expect(await arpaOf(two)).toBe(await arpaOf(fresh));
}
