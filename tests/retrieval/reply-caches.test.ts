import { describe, expect, it } from 'vitest';
import { adminDocumentsHandlers } from '../../lib/admin/index.js';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { TextColumn } from '../../lib/retrieval/columns.js';
import type { Services } from '../../lib/services/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { embeddedServices, postJson, redisServices } from '../support/services.js';

const OWNER = { 'x-owner-email': 'owner@example.org', authorization: 'Bearer admin-token-for-tests' };
const ENV = {
  OWNER_EMAIL: 'owner@example.org',
  ADMIN_TOKEN: 'admin-token-for-tests',
  RATE_LIMIT_REQUESTS: '1000',
};

describe('the text column cache of decoded texts', () => {
  it('returns every text as pushed, whatever the order of reads and however slots collide', () => {
    const column = new TextColumn();
    const texts = Array.from({ length: 3000 }, (_, i) => `passage ${i} é ${'x'.repeat(i % 7)}`);
    // Read while growing: a slot filled before later pushes still answers for its own id only.
    texts.forEach((text, i) => {
      column.push(text);
      expect(column.get(i)).toBe(text);
      if (i >= 1024) expect(column.get(i - 1024)).toBe(texts[i - 1024]);
    });
    for (const i of [0, 1024, 2048, 0, 2048, 1024, 2999, 1975, 951, 2999])
      expect(column.get(i)).toBe(texts[i]);
    for (let i = texts.length - 1; i >= 0; i -= 3) expect(column.get(i)).toBe(texts[i]);
  });
});

function client(services: Services) {
  const train = endpoint(trainHandlers(() => services));
  const chat = endpoint(chatHandlers(() => services));
  const documents = endpoint(adminDocumentsHandlers(() => services));
  let asked = 0;
  return {
    train: async (text: string, documentId: string, format = 'markdown') => {
      const response = await train.fetch(
        postJson('http://127.0.0.1/api/train', { text, documentId, format }),
      );
      expect(response.status).toBe(200);
    },
    ask: async (message: string) => {
      const response = await chat.fetch(
        postJson('http://127.0.0.1/api/chat', {
          message,
          sessionId: `cache-${asked++}`,
          modelMode: 'expert',
        }),
      );
      expect(response.status).toBe(200);
      return (await response.json()) as { response: string; sources: { text: string }[] };
    },
    remove: async (id: string) => {
      const response = await documents.fetch(
        new Request(`http://127.0.0.1/api/admin/documents?id=${encodeURIComponent(id)}`, {
          method: 'DELETE',
          headers: OWNER,
        }),
      );
      expect(response.status).toBe(200);
    },
  };
}

/** What a reply quotes: its text and its sources (not its random replyId). */
const quoted = (reply: { response: string; sources: unknown[] }) =>
  reply.response + JSON.stringify(reply.sources);

const QUESTION = 'Which port does the setup wizard open?';
const OLD = '# Setup\n\nThe setup wizard opens port 7311 on the gateway.\n';
const NEW = '# Setup\n\nThe setup wizard opens port 9422 on the gateway.\n';

/**
 * Every per-index cache of the reply path (decoded texts, a passage's words) is keyed by the
 * passage index, which a replaced or deleted document rebuilds: a reply asked again, word for
 * word, right after the change never quotes the text that is gone.
 */
async function neverServesGoneText(services: Services): Promise<void> {
  const api = client(services);
  await api.train(OLD, 'setup.md');
  await api.train('# Other\n\nThe kettle boils water for tea.\n', 'other.md');
  for (let i = 0; i < 3; i++) expect((await api.ask(QUESTION)).response).toContain('7311');

  await api.train(NEW, 'setup.md');
  for (let i = 0; i < 3; i++) {
    const reply = await api.ask(QUESTION);
    expect(reply.response).toContain('9422');
    expect(quoted(reply)).not.toContain('7311');
  }

  await api.remove('setup.md');
  for (let i = 0; i < 3; i++) {
    const reply = await api.ask(QUESTION);
    expect(quoted(reply)).not.toContain('9422');
    expect(quoted(reply)).not.toContain('7311');
  }
  // The other document still answers, from the rebuilt index.
  expect((await api.ask('What boils water for tea?')).response).toContain('kettle');
}

/**
 * The dialogue layer keeps what a message matched per trained dialogue list: a message sent
 * again after its dialogue was replaced or deleted is matched against what is trained now.
 */
async function neverRepliesFromGoneDialogue(services: Services): Promise<void> {
  const api = client(services);
  await api.train('# Office\n\nThe office opens at nine.\n', 'office.md');
  const GREETING = 'what is the wifi password';
  await api.train(`User: ${GREETING}\nAssistant: It is swordfish.\n`, 'wifi.txt', 'dialogue');
  for (let i = 0; i < 3; i++) expect((await api.ask(GREETING)).response).toBe('It is swordfish.');

  await api.train(`User: ${GREETING}\nAssistant: It is marlin now.\n`, 'wifi.txt', 'dialogue');
  for (let i = 0; i < 3; i++) expect((await api.ask(GREETING)).response).toBe('It is marlin now.');

  await api.remove('wifi.txt');
  for (let i = 0; i < 3; i++) {
    const reply = await api.ask(GREETING);
    expect(reply.response).not.toContain('swordfish');
    expect(reply.response).not.toContain('marlin');
  }
}

describe('caches of the reply path after a document is replaced or deleted', () => {
  it('never serve a deleted or replaced document (embedded store)', async () => {
    await neverServesGoneText(embeddedServices(ENV));
    await neverRepliesFromGoneDialogue(embeddedServices(ENV));
  });

  it('never serve a deleted or replaced document (Redis through the Upstash bridge)', async () => {
    await neverServesGoneText(await redisServices(ENV));
    await neverRepliesFromGoneDialogue(await redisServices(ENV));
  });
});
