import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { adminDocumentsHandlers, adminResetModelHandlers } from '../../lib/admin/index.js';
import { healthHandlers } from '../../lib/health/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import type { Services } from '../../lib/services/index.js';
import { createEmbeddedStore, STORE_FILE } from '../../lib/store/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { STARTER_DOCUMENT_ID, trainingKeys } from '../../lib/training/index.js';
import { embeddedServices, postJson, redisServices } from '../support/services.js';
import { BOUNDARY, multipartBody } from '../upload/multipart.js';

const TRAIN = 'http://127.0.0.1/api/train';
const OWNER = { 'x-owner-email': 'owner@example.org', authorization: 'Bearer admin-token-for-tests' };
const ADMIN_ENV = {
  OWNER_EMAIL: 'owner@example.org',
  ADMIN_TOKEN: 'admin-token-for-tests',
  RATE_LIMIT_REQUESTS: '1000',
};
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function client(services: Services) {
  const train = endpoint(trainHandlers(() => services));
  const documents = endpoint(adminDocumentsHandlers(() => services));
  return {
    train: (body: unknown, headers: Record<string, string> = {}) =>
      train.fetch(postJson(TRAIN, body, headers)),
    trainFile: (filename: string, data: string, fields: Record<string, string> = {}) =>
      train.fetch(
        new Request(TRAIN, {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-real-ip': '192.0.2.10' },
          body: new Uint8Array(
            multipartBody([
              ...Object.entries(fields).map(([name, value]) => ({ name, data: value })),
              { name: 'file', filename, type: 'text/markdown', data },
            ]),
          ),
        }),
      ),
    list: (query = '', headers: Record<string, string> = OWNER) =>
      documents.fetch(new Request(`http://127.0.0.1/api/admin/documents${query}`, { headers })),
    remove: (id: string, headers: Record<string, string> = OWNER) =>
      documents.fetch(
        new Request(`http://127.0.0.1/api/admin/documents?id=${encodeURIComponent(id)}`, {
          method: 'DELETE',
          headers,
        }),
      ),
  };
}

const passageText = async (services: Services) =>
  (await services.model.knowledge()).passages.allTexts().join('\n');

describe('the file form', () => {
  it("uses the file's name as its id, hashes the bytes sent, and carries documentId and url to the passages", async () => {
    const services = embeddedServices(ADMIN_ENV);
    const api = client(services);
    const data = '# Setup\n\nThe setup wizard opens port 7311.\n';
    const first = await api.trainFile('setup.md', data);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ documentId: 'setup.md', status: 'trained' });
    expect(await (await api.trainFile('setup.md', data)).json()).toMatchObject({ status: 'unchanged' });
    const replaced = await api.trainFile('setup.md', data.replace('7311', '9422'), {
      url: 'https://docs.example.org/setup',
    });
    expect(await replaced.json()).toMatchObject({ documentId: 'setup.md', status: 'replaced' });
    const { passages } = await services.model.knowledge();
    expect(passages.allTexts().join(' ')).not.toContain('7311');
    const id = passages.allTexts().findIndex((text) => text.includes('9422'));
    expect(passages.section(id)).toMatchObject({
      documentId: 'setup.md',
      url: 'https://docs.example.org/setup',
    });
    const { createHash } = await import('node:crypto');
    const listed = await (await api.list()).json();
    expect(listed.documents).toEqual([
      expect.objectContaining({
        id: 'setup.md',
        name: 'setup.md',
        format: 'markdown',
        bytes: Buffer.byteLength(data),
        sha256: createHash('sha256').update(data.replace('7311', '9422')).digest('hex'),
        passages: 1,
        url: 'https://docs.example.org/setup',
      }),
    ]);
    const named = await api.trainFile('other.md', data, { documentId: 'guide/other', url: 'ftp://x' });
    expect(named.status).toBe(400);
  });
});

describe('parts of a file larger than one request', () => {
  it('keep the old version until the last part, then go live together; part 1 of the stored hash is unchanged', async () => {
    const services = await redisServices(ADMIN_ENV);
    const api = client(services);
    await api.train({ text: 'The old manual says the port is 7311.', documentId: 'manual.txt' });
    const whole =
      'The new manual says the port is 9422.\nIt also covers the quokka relay.\nAnd the narwhal index.';
    const pieces = [whole.slice(0, 38), whole.slice(38, 70), whole.slice(70)];
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(whole).digest('hex');
    const part = (k: number, text = pieces[k - 1]) =>
      api.train({ text, documentId: 'manual.txt', sha256, part: k, parts: 3 });

    const one = await part(1);
    expect(one.status).toBe(202);
    expect(await one.json()).toEqual({ documentId: 'manual.txt', status: 'pending', part: 1, parts: 3 });
    expect((await part(2)).status).toBe(202);
    expect(await passageText(services)).toContain('7311');
    expect(await passageText(services)).not.toContain('quokka');
    const conflict = await part(2, 'other text for the same part');
    expect(conflict.status).toBe(422);
    expect((await conflict.json()).code).toBe('idempotency_conflict');
    const last = await part(3);
    expect(last.status).toBe(200);
    expect(await last.json()).toMatchObject({ documentId: 'manual.txt', status: 'replaced' });
    const texts = await passageText(services);
    expect(texts).not.toContain('7311');
    expect(texts).toContain('9422');
    expect(texts).toContain('narwhal');
    const again = await part(1);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: 'unchanged' });
    expect(await services.store.countKeys('train:parts:')).toBe(0);
  });

  it('complete in any order, and refuse another split of the same hash with 422', async () => {
    const services = embeddedServices(ADMIN_ENV);
    const api = client(services);
    const sha256 = 'c'.repeat(64);
    const send = (part: number, parts: number, text: string) =>
      api.train({ text, documentId: 'shuffled.txt', sha256, part, parts });
    expect((await send(3, 3, 'and the okapi.')).status).toBe(202);
    const mismatch = await send(1, 4, 'The wombat, ');
    expect(mismatch.status).toBe(422);
    expect((await mismatch.json()).code).toBe('idempotency_conflict');
    expect((await send(1, 3, 'The wombat, ')).status).toBe(202);
    const last = await send(2, 3, 'the quokka ');
    expect(last.status).toBe(200);
    expect(await last.json()).toMatchObject({ status: 'trained', documentId: 'shuffled.txt' });
    expect(await passageText(services)).toBe('The wombat, the quokka and the okapi.');
  });

  it("carry a PDF's text read on the client (format pdf), its pages kept", async () => {
    const services = embeddedServices(ADMIN_ENV);
    const api = client(services);
    const sha256 = 'e'.repeat(64);
    const send = (part: number, text: string) =>
      api.train({ text, format: 'pdf', documentId: 'ferry.pdf', sha256, part, parts: 2 });
    expect((await send(1, 'Crossings\n=========\n\nThe ferry leaves at nine.\n\f\n\n')).status).toBe(202);
    const last = await send(2, 'Fares\n=====\n\nA crossing costs four marks.');
    expect(last.status).toBe(200);
    expect(await last.json()).toMatchObject({ documentId: 'ferry.pdf', status: 'trained' });
    const passages = (await services.model.knowledge()).passages;
    const fares = passages.allTexts().findIndex((text) => text.includes('four marks'));
    expect(fares).toBeGreaterThanOrEqual(0);
    expect(passages.section(fares).path).toEqual(['Fares']);
    expect(passages.section(fares).page).toBe(2);
  });

  it('expire when the upload never completes', async () => {
    const services = await redisServices(ADMIN_ENV);
    const api = client(services);
    const sha256 = 'b'.repeat(64);
    await api.train({ text: 'first of two', documentId: 'never-done', sha256, part: 1, parts: 2 });
    const ttl = await services.store.ttl(`train:parts:${sha256}:never-done`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3600);
  });
});

describe('claims on a document', () => {
  it('answer 409 train_in_progress with Retry-After while another request holds the claim, and train once it expires', async () => {
    const services = embeddedServices(ADMIN_ENV);
    const api = client(services);
    // A claim left by an instance that crashed mid-train: it expires within seconds.
    await services.store.set('train:claim:busy-doc', 'crashed-instance', { ttlSeconds: 7 });
    const started = Date.now();
    const busy = await api.train({ text: 'Busy text.', documentId: 'busy-doc' });
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(await busy.json()).toMatchObject({ code: 'train_in_progress', retryAfter: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 7_200 - (Date.now() - started))));
    const retried = await api.train({ text: 'Busy text.', documentId: 'busy-doc' });
    expect(retried.status).toBe(200);
  }, 20_000);

  it('serialise a delete after a training of the same id', async () => {
    const services = embeddedServices(ADMIN_ENV);
    const api = client(services);
    await services.store.set('train:claim:doc-x', 'a-training', { ttlSeconds: 30 });
    const training = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await services.store.del('train:claim:doc-x');
      return api.train({ text: 'Doc x mentions the axolotl.', documentId: 'doc-x' });
    })();
    const deleting = api.remove('doc-x');
    const [trained, deleted] = await Promise.all([training, deleting]);
    // Whichever got the claim first, the two never interleave: a delete that ran first finds
    // nothing (404) and the document stays; one that ran second removes it whole.
    expect(trained.status).toBe(200);
    if (deleted.status === 200) expect(await passageText(services)).not.toContain('axolotl');
    else {
      expect(deleted.status).toBe(404);
      expect(await passageText(services)).toContain('axolotl');
    }
    const listed = (await (await api.list()).json()).documents.map((d: { id: string }) => d.id);
    expect(listed.includes('doc-x')).toBe(deleted.status !== 200);
  });
});

describe('a crash mid-replace', () => {
  it('leaves the old version whole (never both, never neither), and the retry replaces it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replace-fault-'));
    dirs.push(dir);
    const services = embeddedServices(ADMIN_ENV, { store: createEmbeddedStore({ dataDir: dir }) });
    const api = client(services);
    await api.train({ text: 'Version one says the port is 7311.', documentId: 'ports' });
    const before = await services.store.lrange(trainingKeys.chunks, 0, -1);
    const saboteur = new DatabaseSync(join(dir, STORE_FILE));
    saboteur.exec(`CREATE TRIGGER fail_documents BEFORE INSERT ON hash_fields WHEN NEW.key = '${trainingKeys.documents}'
      BEGIN SELECT RAISE(ABORT, 'injected fault: disk full'); END`);
    const failed = await api.train({ text: 'Version two says the port is 9422.', documentId: 'ports' });
    expect([500, 503]).toContain(failed.status);
    expect(await services.store.lrange(trainingKeys.chunks, 0, -1)).toEqual(before);
    const texts = await passageText(services);
    expect(texts).toContain('7311');
    expect(texts).not.toContain('9422');
    saboteur.exec('DROP TRIGGER fail_documents');
    saboteur.close();
    expect(
      await (await api.train({ text: 'Version two says the port is 9422.', documentId: 'ports' })).json(),
    ).toMatchObject({
      status: 'replaced',
    });
    expect(await passageText(services)).not.toContain('7311');
    await services.store.close();
  });
});

describe('GET and DELETE /api/admin/documents', () => {
  it('pages the table by id, deletes by id, 404s an unknown id and refuses non-owners as other admin endpoints do', async () => {
    const services = await redisServices(ADMIN_ENV);
    const api = client(services);
    for (let i = 0; i < 5; i++)
      await api.train({ text: `Document ${i} is about topic${i}.`, documentId: `doc-${i}` });
    const first = await (await api.list('?limit=2')).json();
    expect(first.documents.map((d: { id: string }) => d.id)).toEqual(['doc-0', 'doc-1']);
    const second = await (await api.list(`?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.documents.map((d: { id: string }) => d.id)).toEqual(['doc-2', 'doc-3']);
    const third = await (await api.list(`?limit=2&cursor=${second.nextCursor}`)).json();
    expect(third.documents.map((d: { id: string }) => d.id)).toEqual(['doc-4']);
    expect(third.nextCursor).toBeUndefined();
    for (const query of ['?limit=0', '?limit=1001', '?limit=abc', '?cursor=%%%']) {
      const response = await api.list(query);
      expect(response.status, query).toBe(400);
    }

    const deleted = await api.remove('doc-2');
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ deleted: 'doc-2' });
    expect(await passageText(services)).not.toContain('topic2');
    const missing = await api.remove('doc-2');
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('document_not_found');
    expect((await api.remove('')).status).toBe(400);

    expect((await api.list('', {})).status).toBe(401);
    expect(
      (await api.remove('doc-1', { 'x-owner-email': 'owner@example.org', authorization: 'Bearer wrong' }))
        .status,
    ).toBe(403);
    expect(await passageText(services)).toContain('topic1');
  });
});

describe('the starter guide', () => {
  it('is the document starter-guide, leaves when the first document of the user is trained, and comes back on reset-model', async () => {
    const services = embeddedServices({ ...ADMIN_ENV, STARTER_TEXT: 'on' });
    const api = client(services);
    const health = endpoint(healthHandlers(() => services));
    const report = async () => (await health.fetch(new Request('http://127.0.0.1/api/health'))).json();
    expect((await report()).starterGuide).toBe('present');
    const ids = async () => (await (await api.list()).json()).documents.map((d: { id: string }) => d.id);
    // The first question seeds an empty store with the guide.
    const guide = (await passageText(services)).split('\n')[0]!;
    expect(guide.length).toBeGreaterThan(0);
    expect(await ids()).toEqual([STARTER_DOCUMENT_ID]);

    await api.train({ text: 'My own document is about the okapi.', documentId: 'mine' });
    expect(await ids()).toEqual(['mine']);
    expect((await report()).starterGuide).toBe('left');
    expect(await passageText(services)).toBe('My own document is about the okapi.');

    const reset = endpoint(adminResetModelHandlers(() => services));
    expect(
      (
        await reset.fetch(
          new Request('http://127.0.0.1/api/admin/reset-model', { method: 'POST', headers: OWNER }),
        )
      ).status,
    ).toBe(200);
    expect((await report()).starterGuide).toBe('present');
    expect(await passageText(services)).toContain(guide);
    expect(await ids()).toEqual([STARTER_DOCUMENT_ID]);
  });
});

describe('sources of a reply', () => {
  it('carry the documentId and link to the url the document was trained with, at its section', async () => {
    const services = embeddedServices(ADMIN_ENV);
    const api = client(services);
    await api.train({
      text: '# Install\n\n## Ports\n\nThe relay listens on port 7311 by default.\n',
      format: 'markdown',
      documentId: 'guide/install.md',
      url: 'https://docs.example.org/guide/install',
    });
    const { chatHandlers } = await import('../../lib/chat/handlers.js');
    const chat = endpoint(chatHandlers(() => services));
    const reply = await (
      await chat.fetch(
        postJson('http://127.0.0.1/api/chat', { message: 'Which port does the relay listen on?' }),
      )
    ).json();
    expect(reply.sources.length).toBeGreaterThan(0);
    expect(reply.sources[0]).toMatchObject({
      documentId: 'guide/install.md',
      url: 'https://docs.example.org/guide/install#ports',
    });
  });
});
