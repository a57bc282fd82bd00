import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../lib/config/index.js';
import { healthHandlers } from '../../lib/health/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { discoverRoutes } from '../../lib/local-server/index.js';
import { type OpenApiDocument, openApiDocument } from '../../lib/openapi/index.js';
import { createServices } from '../../lib/services/index.js';
import { upstashStore } from '../../lib/store/index.js';
import { assertSupportedSchema, resolveRef } from '../support/json-schema.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';
import { freePort } from '../support/redis-server.js';
import { startWikipediaStandin, type WikipediaStandin } from '../support/wikipedia-standin.js';
import { type Conformance, checkOperation, checkResponse } from './conformance.js';

const SESSION_LIMIT = 3;
const RATE_LIMIT = 8;
const OWNER_EMAIL = 'owner@example.com';
const ADMIN_TOKEN = 'openapi-test-admin-token-0123456789';

let server: RunningServer;
let wikipedia: WikipediaStandin;
let oidc: OidcStandin;
let document: OpenApiDocument;
const dataDir = mkdtempSync(join(tmpdir(), 'openapi-test-'));

beforeAll(async () => {
  wikipedia = await startWikipediaStandin();
  oidc = await startOidcStandin();
  server = await startLocalServer({
    DATA_DIR: dataDir,
    SESSION_LIMIT_FREE: String(SESSION_LIMIT),
    RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
    // The test stands in for a proxy that sets X-Real-IP, so each test has an address of its own.
    TRUST_PROXY_HEADER: 'x-real-ip',
    WIKIPEDIA_BASE_URL: wikipedia.baseUrl,
    OIDC_ISSUER: oidc.issuer,
    OIDC_AUDIENCE: oidc.audience,
    OWNER_EMAIL,
    ADMIN_TOKEN,
  });
  document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as OpenApiDocument;
});

afterAll(async () => {
  await server?.stop();
  await wikipedia?.close();
  await oidc?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let addressCounter = 0;
/** A client address of its own, so that one test's requests never count against another's rate limit. */
const freshAddress = () => `10.77.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

interface Call {
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  address?: string;
}

/** Sends `METHOD /api<path>` to the running server and checks the answer against the document. */
async function call(method: string, path: string, options: Call = {}): Promise<Conformance> {
  const headers: Record<string, string> = {
    'x-real-ip': options.address ?? freshAddress(),
    ...options.headers,
  };
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const documentPath = path.split('?')[0]!;
  const response = await fetch(`${server.url}/api${path}`, { method, headers, body });
  return checkOperation(document, method, documentPath, response);
}

function expectConforms(result: Conformance, status: number): void {
  expect(result.issues, `issues of a ${result.status} response`).toEqual([]);
  expect(result.status, JSON.stringify(result.body)).toBe(status);
}

const errorOf = (result: Conformance) =>
  result.body as { error: string; code: string } & Record<string, unknown>;

async function pngImage(width = 32, height = 24): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
}

function uploadForm(bytes: Uint8Array, type: string, name: string, field = 'file'): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

const ownerHeaders = { 'X-Owner-Email': OWNER_EMAIL, Authorization: `Bearer ${ADMIN_TOKEN}` };

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 whose references all resolve and whose schemas use only checked keywords', () => {
    expect(openApiDocument.openapi).toBe('3.1.0');
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, child] of Object.entries(node)) {
        if (key === '$ref') expect(() => resolveRef(openApiDocument, child as string), at).not.toThrow();
        else if (key === 'schema') assertSupportedSchema(openApiDocument, child, `${at}/schema`);
        else walk(child, `${at}/${key}`);
      }
    };
    walk(openApiDocument, '#');
    for (const [name, schema] of Object.entries(openApiDocument.components.schemas)) {
      assertSupportedSchema(openApiDocument, schema, `#/components/schemas/${name}`);
    }
  });

  it('gives every operation its own operationId and documents a 2xx answer', () => {
    const ids: string[] = [];
    for (const item of Object.values(openApiDocument.paths)) {
      for (const method of ['get', 'post', 'delete', 'options'] as const) {
        const operation = item[method];
        if (!operation) continue;
        ids.push(operation.operationId);
        expect(Object.keys(operation.responses).some((status) => status.startsWith('2'))).toBe(true);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents every function under api/', () => {
    const routes = [...discoverRoutes(resolve(import.meta.dirname, '../../api')).keys()];
    const documented = Object.keys(openApiDocument.paths).map((path) => `/api${path}`);
    expect(documented).toEqual(expect.arrayContaining(routes));
  });

  it('lists for every path exactly the methods it answers (OPTIONS 204 with Allow)', async () => {
    for (const [path, item] of Object.entries(document.paths)) {
      if (item.servers) continue; // a static file at the host root: GET and HEAD, no preflight
      const result = await call('OPTIONS', path);
      expectConforms(result, 204);
      const documented = ['get', 'post', 'delete', 'options'].filter((method) => method in item);
      if ('get' in item) documented.push('head'); // HEAD answers wherever GET does
      const allowed = (result.headers.get('allow') ?? '').toLowerCase().split(/,\s*/);
      expect(allowed.sort(), path).toEqual(documented.sort());
      expect(result.headers.get('access-control-allow-origin')).toBe('*');
    }
  });
});

describe('GET /api/openapi.json', () => {
  it('serves the document, with CORS', async () => {
    const result = await call('GET', '/openapi.json');
    expectConforms(result, 200);
    expect(result.body).toEqual(JSON.parse(JSON.stringify(openApiDocument)));
    expect(result.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers 405 with Allow to a POST', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`, { method: 'POST' });
    const result = await checkResponse(
      document,
      { $ref: '#/components/responses/MethodNotAllowed' },
      response,
    );
    expect(result.issues).toEqual([]);
    expect(result.status).toBe(405);
    expect(result.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('GET /api/health', () => {
  it('reports ok with the vocabulary size and the store', async () => {
    const result = await call('GET', '/health');
    expectConforms(result, 200);
    expect(result.body).toMatchObject({ status: 'ok', store: 'embedded' });
  });

  it('answers 503 degraded as documented when the store cannot be reached', async () => {
    const port = await freePort();
    const store = upstashStore({ url: `http://127.0.0.1:${port}`, token: 'x', retries: 0 });
    const services = createServices(parseConfig({}), {
      store,
      limiter: { limit: async () => ({ success: true, limit: 1, remaining: 1, reset: 0 }) },
    });
    const response = await endpoint(healthHandlers(() => services)).fetch(
      new Request('http://test/api/health'),
    );
    const result = await checkOperation(document, 'GET', '/health', response);
    expectConforms(result, 503);
  });
});

describe('POST /api/chat (Variant A)', () => {
  it('answers a bare message with the reply and the session and rate-limit headers', async () => {
    const result = await call('POST', '/chat', { json: { message: 'Hello there' } });
    expectConforms(result, 200);
    expect(Number(result.headers.get('x-session-limit'))).toBe(SESSION_LIMIT);
  });

  it.each(['instant', 'expert', 'apex'] as const)(
    'answers in %s mode with every option set',
    async (modelMode) => {
      const result = await call('POST', '/chat', {
        json: {
          message: 'What is light?',
          sessionId: `mode-${modelMode}`,
          userId: 'openapi-test',
          modelMode,
          raw: modelMode === 'instant',
          temperature: 0.2,
          maxTokens: 40,
        },
      });
      expectConforms(result, 200);
    },
  );

  it('accepts an image as a data: URL', async () => {
    const image = `data:image/png;base64,${(await pngImage()).toString('base64')}`;
    const result = await call('POST', '/chat', {
      json: { message: 'What is in this picture?', sessionId: 'with-image', imageBase64: image },
    });
    expectConforms(result, 200);
  });

  it.each([
    ['the message is missing', { sessionId: 'x' }],
    ['the message is empty', { message: '' }],
    ['the message is longer than 4000 characters', { message: 'a'.repeat(4001) }],
    ['temperature is above 1', { message: 'hi', temperature: 1.5 }],
    ['maxTokens is not a positive integer', { message: 'hi', maxTokens: 0 }],
    ['maxTokens is above 400', { message: 'hi', maxTokens: 401 }],
    ['modelMode is unknown', { message: 'hi', modelMode: 'turbo' }],
    ['sessionId has characters outside [A-Za-z0-9_-]', { message: 'hi', sessionId: 'a b' }],
  ])('answers 400 when %s', async (_, json) => {
    const result = await call('POST', '/chat', { json });
    expectConforms(result, 400);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const result = await call('POST', '/chat', {
      body: '{"message": ',
      headers: { 'content-type': 'application/json' },
    });
    expectConforms(result, 400);
  });

  it('answers 415 when the body is not sent as JSON', async () => {
    const result = await call('POST', '/chat', {
      body: 'message=hi',
      headers: { 'content-type': 'text/plain' },
    });
    expectConforms(result, 415);
  });

  it('answers 413 to a body far larger than any allowed image', async () => {
    const result = await call('POST', '/chat', {
      json: { message: 'hi', imageBase64: 'A'.repeat(12_000_000) },
    });
    expectConforms(result, 413);
  });

  it('answers 401 to a sign-in token that does not verify', async () => {
    const expired = await oidc.mintToken({}, { expiresIn: -600 });
    const result = await call('POST', '/chat', {
      json: { message: 'hi', sessionId: 'expired-token' },
      headers: { authorization: `Bearer ${expired}` },
    });
    expectConforms(result, 401);
  });

  it('answers 429 session_limit with the limit once the session allowance is spent', async () => {
    const address = freshAddress();
    for (let sent = 1; sent <= SESSION_LIMIT; sent++) {
      const result = await call('POST', '/chat', {
        json: { message: `hi ${sent}`, sessionId: 'spent' },
        address,
      });
      expectConforms(result, 200);
      expect(Number(result.headers.get('x-session-remaining'))).toBe(SESSION_LIMIT - sent);
    }
    const result = await call('POST', '/chat', {
      json: { message: 'one more', sessionId: 'spent' },
      address,
    });
    expectConforms(result, 429);
    expect(errorOf(result)).toMatchObject({ code: 'session_limit', limit: SESSION_LIMIT, remaining: 0 });
  });

  it('answers 429 rate_limited with Retry-After once an address sends too many requests', async () => {
    const address = freshAddress();
    let result: Conformance | undefined;
    for (let sent = 0; sent <= RATE_LIMIT; sent++) {
      result = await call('POST', '/chat', { json: { message: 'hi', sessionId: `burst-${sent}` }, address });
      if (result.status === 429) break;
      expectConforms(result, 200);
    }
    expectConforms(result!, 429);
    expect(errorOf(result!)).toMatchObject({ code: 'rate_limited', retryAfter: expect.any(Number) });
    expect(Number(result!.headers.get('retry-after'))).toBeGreaterThanOrEqual(0);
  });

  it('answers 405 with Allow to a GET', async () => {
    const response = await fetch(`${server.url}/api/chat`);
    const result = await checkResponse(
      document,
      { $ref: '#/components/responses/MethodNotAllowed' },
      response,
    );
    expect(result.issues).toEqual([]);
    expect(result.status).toBe(405);
  });
});

describe('POST /api/train', () => {
  it('learns a text and reports the tokens and the vocabulary size', async () => {
    const result = await call('POST', '/train', {
      json: { text: 'The quick brown fox jumps over the lazy dog. The dog sleeps in the sun.' },
    });
    expectConforms(result, 200);
    expect(result.body).toMatchObject({ ok: true, tokens: expect.any(Number) });
  });

  it('learns a Markdown text with a name, and an uploaded document', async () => {
    const text = '# Shop\n\n## Returns\n\nReturns are free within thirty days.\n';
    expectConforms(
      await call('POST', '/train', { json: { text, format: 'markdown', name: 'shop.md' } }),
      200,
    );
    const form = new FormData();
    form.set('file', new Blob([text], { type: 'text/markdown' }), 'shop.md');
    expectConforms(await call('POST', '/train', { body: form }), 200);
  });

  it('answers 415 to an uploaded file of a kind it cannot read', async () => {
    const form = new FormData();
    form.set('file', new Blob(['PK']), 'report.docx');
    expectConforms(await call('POST', '/train', { body: form }), 415);
  });

  it('answers 400 without text', async () => {
    expectConforms(await call('POST', '/train', { json: {} }), 400);
    expectConforms(await call('POST', '/train', { json: { text: 42 } }), 400);
  });

  it('answers 415 when the body is not JSON', async () => {
    const result = await call('POST', '/train', {
      body: 'some text',
      headers: { 'content-type': 'text/plain' },
    });
    expectConforms(result, 415);
  });

  it('answers 413 to a text over the cap', async () => {
    const result = await call('POST', '/train', { json: { text: 'word '.repeat(4_000_000) } });
    expectConforms(result, 413);
  });

  it('answers 429 rate_limited with Retry-After once an address sends too many requests', async () => {
    const address = freshAddress();
    let result: Conformance | undefined;
    for (let sent = 0; sent <= RATE_LIMIT; sent++) {
      result = await call('POST', '/train', { json: { text: `burst number ${sent}` }, address });
      if (result.status === 429) break;
      expectConforms(result, 200);
    }
    expectConforms(result!, 429);
    expect(result!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('/api/upload', () => {
  it('stores a PNG, answers its URL and base64, and serves it back at GET ?id=', async () => {
    const png = await pngImage(40, 30);
    const result = await call('POST', '/upload', { body: uploadForm(png, 'image/png', 'blue.png') });
    expectConforms(result, 200);
    const uploaded = result.body as {
      id: string;
      url: string;
      width: number;
      height: number;
      mimeType: string;
    };
    expect(uploaded).toMatchObject({ width: 40, height: 30, mimeType: 'image/png' });

    const served = await call('GET', `/upload?id=${uploaded.id}`);
    expectConforms(served, 200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new URL(uploaded.url).searchParams.get('id')).toBe(uploaded.id);
  });

  it('answers 415 to a file that is not an image', async () => {
    const text = new TextEncoder().encode('this is not an image at all');
    const result = await call('POST', '/upload', { body: uploadForm(text, 'image/png', 'fake.png') });
    expectConforms(result, 415);
  });

  it('answers 415 when the body is not multipart/form-data', async () => {
    const result = await call('POST', '/upload', { json: { file: 'abc' } });
    expectConforms(result, 415);
  });

  it('answers 413 to a file over 5 MB', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1).fill(7);
    const result = await call('POST', '/upload', { body: uploadForm(big, 'image/png', 'big.png') });
    expectConforms(result, 413);
  });

  it('answers 400 when there is no part named file', async () => {
    const result = await call('POST', '/upload', {
      body: uploadForm(await pngImage(), 'image/png', 'a.png', 'photo'),
    });
    expectConforms(result, 400);
  });

  it('answers 400 to a malformed id and 404 to an unknown one', async () => {
    expectConforms(await call('GET', '/upload?id=not-an-id'), 400);
    expectConforms(await call('GET', `/upload?id=${'0'.repeat(64)}`), 404);
  });
});

describe('feedback, suggestions and the question log', () => {
  it('POST /api/feedback records a rating of a reply and answers 400 and 404 as documented', async () => {
    const chat = await call('POST', '/chat', { json: { message: 'What is light?', stream: false } });
    expectConforms(chat, 200);
    const { replyId } = chat.body as { replyId: string };
    expectConforms(
      await call('POST', '/feedback', { json: { replyId, rating: 'down', comment: 'Too short.' } }),
      200,
    );
    expectConforms(await call('POST', '/feedback', { json: { replyId, rating: 'meh' } }), 400);
    expectConforms(
      await call('POST', '/feedback', { json: { replyId, rating: 'up', comment: 'x'.repeat(1001) } }),
      400,
    );
    const unknown = await call('POST', '/feedback', {
      json: { replyId: 'reply-0123456789abcdef0123456789abcdef', rating: 'up' },
    });
    expectConforms(unknown, 404);
    expect(errorOf(unknown).code).toBe('reply_not_found');
  });

  it('GET /api/suggestions answers its questions', async () => {
    expectConforms(await call('GET', '/suggestions'), 200);
  });

  it('GET /api/admin/questions answers the owner, 400 for a bad kind, 401 without credentials', async () => {
    for (const kind of ['unanswered', 'disliked', 'top']) {
      expectConforms(
        await call('GET', `/admin/questions?kind=${kind}&days=7`, { headers: ownerHeaders }),
        200,
      );
    }
    expectConforms(await call('GET', '/admin/questions?kind=worst', { headers: ownerHeaders }), 400);
    expectConforms(await call('GET', '/admin/questions'), 401);
  });
});

describe('admin endpoints', () => {
  it('GET /api/admin/stats answers the owner', async () => {
    expectConforms(await call('GET', '/admin/stats', { headers: ownerHeaders }), 200);
  });

  it('answers 401 without X-Owner-Email and 403 with a wrong proof', async () => {
    expectConforms(
      await call('GET', '/admin/stats', { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }),
      401,
    );
    for (const path of ['/admin/stats', '/admin/export']) {
      const wrong = await call('GET', path, {
        headers: { 'X-Owner-Email': OWNER_EMAIL, Authorization: 'Bearer not-the-admin-token-at-all' },
      });
      expectConforms(wrong, 403);
    }
    const other = await call('POST', '/admin/reset-model', {
      headers: { 'X-Owner-Email': 'someone@example.com', Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expectConforms(other, 403);
  });

  it('GET /api/admin/export returns the trained text as plain text', async () => {
    const text = 'Exported sentences come back word for word.';
    expectConforms(await call('POST', '/train', { json: { text } }), 200);
    const result = await call('GET', '/admin/export', { headers: ownerHeaders });
    expectConforms(result, 200);
    expect(result.body).toContain(text);
  });

  it('DELETE /api/admin/session deletes a session; 400 without an id, 404 for an unknown one', async () => {
    expectConforms(await call('POST', '/chat', { json: { message: 'hi', sessionId: 'to-delete' } }), 200);
    expectConforms(await call('DELETE', '/admin/session?id=to-delete', { headers: ownerHeaders }), 200);
    expectConforms(await call('DELETE', '/admin/session', { headers: ownerHeaders }), 400);
    expectConforms(await call('DELETE', '/admin/session?id=never-started', { headers: ownerHeaders }), 404);
  });

  it('GET /api/admin/previews lists the preview namespaces; DELETE needs a branch and finds none here', async () => {
    const listed = await call('GET', '/admin/previews', { headers: ownerHeaders });
    expectConforms(listed, 200);
    expect(listed.body).toMatchObject({ namespace: '', corpus: 'own', previews: [] });
    expectConforms(await call('DELETE', '/admin/previews', { headers: ownerHeaders }), 400);
    expectConforms(await call('DELETE', '/admin/previews?namespace=session', { headers: ownerHeaders }), 400);
    expectConforms(await call('DELETE', '/admin/previews?branch=gone', { headers: ownerHeaders }), 404);
  });

  it('POST /api/admin/reset-model empties the model', async () => {
    expectConforms(await call('POST', '/admin/reset-model', { headers: ownerHeaders }), 200);
    const health = await call('GET', '/health');
    expect(health.body).toMatchObject({ vocabSize: 0 });
  });
});

describe('POST /api/api/chat (Variant B)', () => {
  it.each(['standard', 'think', 'deep_think'] as const)('answers in %s mode', async (mode) => {
    const result = await call('POST', '/api/chat', {
      json: {
        message: 'How do plants make food?',
        mode,
        history: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: 'Hello! Ask me anything.' },
        ],
      },
    });
    expectConforms(result, 200);
    expect(result.body).toMatchObject({ mode });
  });

  it('answers a bare message in standard mode', async () => {
    const result = await call('POST', '/api/chat', { json: { message: 'Hi' } });
    expectConforms(result, 200);
    expect(result.body).toMatchObject({ mode: 'standard' });
  });

  it('grounds a www answer in the encyclopedia and names the source', async () => {
    const result = await call('POST', '/api/chat', {
      json: { message: 'Who was Alan Turing?', mode: 'www' },
    });
    expectConforms(result, 200);
    expect(result.body).toMatchObject({ mode: 'www', source: { title: 'Alan Turing' } });
  });

  it.each([
    ['the message is missing', { mode: 'think' }],
    ['the message is empty', { message: '' }],
    ['the mode is unknown', { message: 'hi', mode: 'ultra' }],
    ['a history item has an unknown role', { message: 'hi', history: [{ role: 'system', content: 'x' }] }],
  ])('answers 400 when %s', async (_, json) => {
    expectConforms(await call('POST', '/api/chat', { json }), 400);
  });

  it('answers 405 with Allow to a GET', async () => {
    const response = await fetch(`${server.url}/api/api/chat`);
    const result = await checkResponse(
      document,
      { $ref: '#/components/responses/MethodNotAllowed' },
      response,
    );
    expect(result.issues).toEqual([]);
    expect(result.status).toBe(405);
    expect(result.headers.get('allow')).toBe('POST, OPTIONS');
    expect(errorOf(result)).toMatchObject({ code: 'method_not_allowed' });
  });

  it('answers 429 rate_limited with Retry-After once an address sends too many requests', async () => {
    const address = freshAddress();
    let result: Conformance | undefined;
    for (let sent = 0; sent <= RATE_LIMIT; sent++) {
      result = await call('POST', '/api/chat', { json: { message: `hi ${sent}` }, address });
      if (result.status === 429) break;
      expectConforms(result, 200);
    }
    expectConforms(result!, 429);
  });
});

describe('GET /api/api/health (Variant B)', () => {
  it('reports status, model and version', async () => {
    expectConforms(await call('GET', '/api/health'), 200);
  });
});

describe('streamed chat replies', () => {
  it('POST /api/chat streams text/event-stream as documented, with the session headers', async () => {
    const result = await call('POST', '/chat', {
      json: { message: 'Tell me a story', sessionId: 'openapi-stream' },
      headers: { accept: 'text/event-stream' },
    });
    expectConforms(result, 200);
    expect(result.body).toMatch(/^event: delta\n/);
    expect(result.body).toContain('event: done\ndata: {"response":');
  });

  it('POST /api/api/chat streams with "stream": true as documented', async () => {
    const result = await call('POST', '/api/chat', {
      json: { message: 'How do plants grow?', stream: true },
    });
    expectConforms(result, 200);
    expect(result.body).toContain('event: done\ndata: {"response":');
  });
});

describe('POST /api/v1/chat/completions (OpenAI-compatible)', () => {
  const question = (extra: Record<string, unknown> = {}) => ({
    model: 'local-expert',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'How do plants make food?' },
    ],
    ...extra,
  });

  it('answers a chat.completion as documented', async () => {
    const result = await call('POST', '/v1/chat/completions', { json: question({ user: 'openapi-1' }) });
    expectConforms(result, 200);
    expect(result.body).toMatchObject({ object: 'chat.completion', model: 'local-expert' });
  });

  it('streams chunks ending with data: [DONE] as documented', async () => {
    const result = await call('POST', '/v1/chat/completions', {
      json: question({ user: 'openapi-2', stream: true, stream_options: { include_usage: true } }),
    });
    expectConforms(result, 200);
    expect(result.body).toMatch(/data: \[DONE\]\n\n$/);
  });

  it('answers 404 for an unknown model and 400 for bad input, in the OpenAI error shape', async () => {
    const missing = await call('POST', '/v1/chat/completions', { json: question({ model: 'gpt-4' }) });
    expectConforms(missing, 404);
    expect(missing.body).toMatchObject({ error: { code: 'model_not_found', param: 'model' } });
    const bad = await call('POST', '/v1/chat/completions', { json: question({ messages: [] }) });
    expectConforms(bad, 400);
  });

  it('answers 429 insufficient_quota once the user session has spent its allowance', async () => {
    let result: Conformance | undefined;
    for (let sent = 0; sent <= SESSION_LIMIT; sent++) {
      result = await call('POST', '/v1/chat/completions', { json: question({ user: 'openapi-quota' }) });
    }
    expectConforms(result!, 429);
    expect(result!.body).toMatchObject({ error: { type: 'insufficient_quota' } });
  });

  it('answers 405 with Allow to a GET', async () => {
    const result = await call('GET', '/v1/chat/completions');
    expect(result.issues).toEqual([
      expect.stringContaining('GET /v1/chat/completions is not in the document'),
    ]);
    const response = await fetch(`${server.url}/api/v1/chat/completions`);
    const checked = await checkResponse(
      document,
      document.paths['/v1/chat/completions']!.post!.responses['405']!,
      response,
    );
    expect(checked.issues).toEqual([]);
    expect(checked.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('GET /api/v1/models (OpenAI-compatible)', () => {
  it('lists the models as documented', async () => {
    const result = await call('GET', '/v1/models');
    expectConforms(result, 200);
    expect((result.body as { data: { id: string }[] }).data.map((model) => model.id)).toEqual([
      'local-instant',
      'local-expert',
      'local-apex',
    ]);
  });
});

describe('POST /api/ui/chat (AI SDK UI message stream)', () => {
  const userMessage = (text: string) => ({ id: 'u1', role: 'user', parts: [{ type: 'text', text }] });

  it('streams the reply as documented, with the allowance headers', async () => {
    const result = await call('POST', '/ui/chat', {
      json: {
        id: 'openapi-ui',
        messages: [userMessage('What is light?')],
        trigger: 'submit-message',
        messageId: null,
        modelMode: 'instant',
        temperature: 0.3,
        maxTokens: 40,
      },
    });
    expectConforms(result, 200);
    expect(result.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(result.body as string).toMatch(/"type":"finish"/);
  });

  it.each([
    ['a Variant A body', { message: 'hi' }],
    ['no messages', { id: 'x', messages: [] }],
    ['the assistant speaking last', { id: 'x', messages: [{ role: 'assistant', parts: [] }] }],
  ])('answers 400 for %s', async (_, json) => {
    expectConforms(await call('POST', '/ui/chat', { json }), 400);
  });
});

describe('GET /widget.js (at the host root)', () => {
  it('serves the script as documented, loadable from any origin', async () => {
    const root = document.paths['/widget.js']!.servers![0]!.url.replace(/\/$/, '');
    const response = await fetch(`${server.url}${root}/widget.js`);
    const result = await checkOperation(document, 'GET', '/widget.js', response);
    expectConforms(result, 200);
    expect(result.headers.get('access-control-allow-origin')).toBe('*');
    expect(result.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
