import sharp from 'sharp';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminDocumentsHandlers,
  adminPreviewsHandlers,
  adminResetModelHandlers,
  adminSessionHandlers,
  adminStatsHandlers,
} from '../../lib/admin/index.js';
import {
  adminStatsSchema,
  deleteDocumentResultSchema,
  deleteSessionResultSchema,
  previewListSchema,
  resetModelResultSchema,
} from '../../lib/admin/schema.js';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { chatResponseSchema } from '../../lib/chat/schema.js';
import { parseConfig } from '../../lib/config/index.js';
import { healthHandlers } from '../../lib/health/handlers.js';
import { healthDegradedSchema, healthOkSchema } from '../../lib/health/schema.js';
import { endpoint, type MethodHandler } from '../../lib/http/index.js';
import {
  errorBodySchema,
  rateLimitedErrorSchema,
  sessionLimitErrorSchema,
  validationErrorSchema,
} from '../../lib/http/schema.js';
import { openApiDocument } from '../../lib/openapi/index.js';
import { adminQuestionsHandlers, feedbackHandlers } from '../../lib/questions/handlers.js';
import { feedbackResponseSchema, questionsResponseSchema } from '../../lib/questions/schema.js';
import { createServices, type Services } from '../../lib/services/index.js';
import { upstashStore } from '../../lib/store/index.js';
import { suggestionsHandlers } from '../../lib/suggestions/handlers.js';
import { suggestionsResponseSchema } from '../../lib/suggestions/schema.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { documentListSchema, trainPendingSchema, trainResponseSchema } from '../../lib/training/schema.js';
import { uploadHandlers } from '../../lib/upload/handlers.js';
import { uploadedImageSchema } from '../../lib/upload/schema.js';
import { validateJson } from '../support/json-schema.js';
import { freePort } from '../support/redis-server.js';
import { embeddedServices, postJson } from '../support/services.js';

const OWNER_EMAIL = 'owner@example.com';
const ADMIN_TOKEN = 'generated-bodies-admin-token-0123456789';
const owner = { 'X-Owner-Email': OWNER_EMAIL, Authorization: `Bearer ${ADMIN_TOKEN}` };
const base = 'http://127.0.0.1/api';

/**
 * A real body, checked twice: by valibot against the schema the handler's output is typed by,
 * and by the JSON Schema validator against that schema's component in the generated document.
 */
function expectBoth(schema: v.GenericSchema, component: string, body: unknown): void {
  const parsed = v.safeParse(schema, body);
  expect(parsed.issues?.map((issue) => `${v.getDotPath(issue) ?? '$'}: ${issue.message}`) ?? []).toEqual([]);
  const generated = openApiDocument.components.schemas[component];
  expect(generated, `components/schemas/${component}`).toBeDefined();
  expect(validateJson(openApiDocument, generated, body)).toEqual([]);
}

type Handlers = Partial<Record<'GET' | 'POST' | 'DELETE', MethodHandler>>;

async function answer(handlers: Handlers, request: Request): Promise<{ status: number; body: unknown }> {
  const response = await endpoint(handlers).fetch(request);
  return { status: response.status, body: await response.json() };
}

const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`${base}${path}`, { headers: { 'x-real-ip': '192.0.2.20', ...headers } });
const del = (path: string) =>
  new Request(`${base}${path}`, { method: 'DELETE', headers: { 'x-real-ip': '192.0.2.20', ...owner } });

describe('response bodies against the schemas the document is generated from', () => {
  let services: Services;
  const of = () => services;

  beforeAll(async () => {
    services = embeddedServices({
      OWNER_EMAIL,
      ADMIN_TOKEN,
      SESSION_LIMIT_FREE: '2',
      RATE_LIMIT_REQUESTS: '1000',
    });
    const text =
      '# Harbour guide\n\n## Opening hours of the museum\n\nThe harbour museum opens at nine in the morning and closes at five.\n\n' +
      '## Renting a boat\n\nBoats are rented at the pier by the hour, with a deposit of twenty euros.\n';
    const trained = await answer(
      trainHandlers(of),
      postJson(`${base}/train`, {
        text,
        format: 'markdown',
        name: 'harbour.md',
        documentId: 'harbour.md',
        url: 'https://example.com/harbour',
      }),
    );
    expect(trained.status).toBe(200);
    expectBoth(trainResponseSchema, 'TrainResponse', trained.body);
  });

  it('GET /api/health: 200 for a visitor and for the owner (with howToTeach)', async () => {
    const visitor = await answer(healthHandlers(of), get('/health'));
    expect(visitor.status).toBe(200);
    expectBoth(healthOkSchema, 'HealthOk', visitor.body);
    const forOwner = await answer(healthHandlers(of), get('/health', owner));
    expect(forOwner.body).toHaveProperty('howToTeach');
    expectBoth(healthOkSchema, 'HealthOk', forOwner.body);
  });

  it('GET /api/health: 503 degraded when the store cannot be reached', async () => {
    const port = await freePort();
    const unreachable = createServices(parseConfig({ STARTER_TEXT: 'off' }), {
      store: upstashStore({ url: `http://127.0.0.1:${port}`, token: 'x', retries: 0 }),
      limiter: { limit: async () => ({ success: true, limit: 1, remaining: 1, reset: 0 }) },
    });
    const degraded = await answer(
      healthHandlers(() => unreachable),
      get('/health'),
    );
    expect(degraded.status).toBe(503);
    expectBoth(healthDegradedSchema, 'HealthDegraded', degraded.body);
  });

  it('POST /api/chat: the reply with its sources, and 429 session_limit once the allowance is spent', async () => {
    const chat = chatHandlers(of);
    const headers = { 'x-real-ip': '192.0.2.30' };
    const reply = await answer(
      chat,
      postJson(
        `${base}/chat`,
        { message: 'When does the harbour museum open?', sessionId: 'bodies' },
        headers,
      ),
    );
    expect(reply.status).toBe(200);
    expect((reply.body as { sources: unknown[] }).sources.length).toBeGreaterThan(0);
    expectBoth(chatResponseSchema, 'ChatResponse', reply.body);

    const { replyId } = reply.body as { replyId: string };
    const rated = await answer(
      feedbackHandlers(of),
      postJson(`${base}/feedback`, { replyId, rating: 'up' }, headers),
    );
    expectBoth(feedbackResponseSchema, 'FeedbackResponse', rated.body);

    await answer(chat, postJson(`${base}/chat`, { message: 'And a boat?', sessionId: 'bodies' }, headers));
    const spent = await answer(
      chat,
      postJson(`${base}/chat`, { message: 'One more', sessionId: 'bodies' }, headers),
    );
    expect(spent.status).toBe(429);
    expectBoth(sessionLimitErrorSchema, 'SessionLimitError', spent.body);
  });

  it('POST /api/train: 202 pending for a part, 400 validation_failed without text', async () => {
    const sha256 = 'a'.repeat(64);
    const pending = await answer(
      trainHandlers(of),
      postJson(`${base}/train`, { text: 'Part one.', documentId: 'parts.txt', sha256, part: 1, parts: 2 }),
    );
    expect(pending.status).toBe(202);
    expectBoth(trainPendingSchema, 'TrainPending', pending.body);

    const invalid = await answer(trainHandlers(of), postJson(`${base}/train`, { text: 42 }));
    expect(invalid.status).toBe(400);
    expectBoth(validationErrorSchema, 'ValidationError', invalid.body);
  });

  it('POST /api/upload: a stored image with its text', async () => {
    const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'blue.png');
    const uploaded = await answer(
      uploadHandlers(of),
      new Request(`${base}/upload`, { method: 'POST', body: form, headers: { 'x-real-ip': '192.0.2.40' } }),
    );
    expect(uploaded.status).toBe(200);
    expectBoth(uploadedImageSchema, 'UploadResponse', uploaded.body);

    form.set('train', 'true');
    const trained = await answer(
      uploadHandlers(of),
      new Request(`${base}/upload`, { method: 'POST', body: form, headers: { 'x-real-ip': '192.0.2.41' } }),
    );
    expect(trained.body).toMatchObject({ training: { status: 'no_text' } });
    expectBoth(uploadedImageSchema, 'UploadResponse', trained.body);

    form.set('train', 'perhaps');
    const refused = await answer(
      uploadHandlers(of),
      new Request(`${base}/upload`, { method: 'POST', body: form, headers: { 'x-real-ip': '192.0.2.42' } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_failed', field: 'train' });
    expectBoth(validationErrorSchema, 'ValidationError', refused.body);
  });

  it('GET /api/suggestions: the questions', async () => {
    const suggested = await answer(suggestionsHandlers(of), get('/suggestions'));
    expect((suggested.body as { questions: string[] }).questions.length).toBeGreaterThan(0);
    expectBoth(suggestionsResponseSchema, 'SuggestionsResponse', suggested.body);
  });

  it('GET /api/admin/questions: what visitors asked', async () => {
    const asked = await answer(adminQuestionsHandlers(of), get('/admin/questions?kind=top&days=7', owner));
    expect(asked.status).toBe(200);
    expect((asked.body as { questions: unknown[] }).questions.length).toBeGreaterThan(0);
    expectBoth(questionsResponseSchema, 'QuestionsResponse', asked.body);
  });

  it('the admin endpoints: stats, previews, documents, session, reset-model', async () => {
    const stats = await answer(adminStatsHandlers(of), get('/admin/stats', owner));
    expectBoth(adminStatsSchema, 'AdminStats', stats.body);

    const previews = await answer(adminPreviewsHandlers(of), get('/admin/previews', owner));
    expectBoth(previewListSchema, 'PreviewList', previews.body);

    const documents = await answer(adminDocumentsHandlers(of), get('/admin/documents?limit=1', owner));
    expect(documents.body).toMatchObject({ documents: [{ id: 'harbour.md' }] });
    expectBoth(documentListSchema, 'DocumentList', documents.body);

    await answer(chatHandlers(of), postJson(`${base}/chat`, { message: 'Hello', sessionId: 'to-delete' }));
    const session = await answer(adminSessionHandlers(of), del('/admin/session?id=to-delete'));
    expect(session.status).toBe(200);
    expectBoth(deleteSessionResultSchema, 'DeleteSessionResult', session.body);
    const missing = await answer(adminSessionHandlers(of), del('/admin/session?id=never-was'));
    expect(missing.status).toBe(404);
    expectBoth(errorBodySchema, 'ErrorBody', missing.body);

    const deleted = await answer(adminDocumentsHandlers(of), del('/admin/documents?id=harbour.md'));
    expectBoth(deleteDocumentResultSchema, 'DeleteDocumentResult', deleted.body);

    const reset = await answer(
      adminResetModelHandlers(of),
      new Request(`${base}/admin/reset-model`, { method: 'POST', headers: owner }),
    );
    expectBoth(resetModelResultSchema, 'ResetModelResult', reset.body);
  });

  it('429 rate_limited from an address over its limit', async () => {
    const limited = embeddedServices({ RATE_LIMIT_REQUESTS: '1' });
    const chat = chatHandlers(() => limited);
    const headers = { 'x-real-ip': '192.0.2.50' };
    await answer(chat, postJson(`${base}/chat`, { message: 'hi' }, headers));
    const refused = await answer(chat, postJson(`${base}/chat`, { message: 'hi again' }, headers));
    expect(refused.status).toBe(429);
    expectBoth(rateLimitedErrorSchema, 'RateLimitedError', refused.body);
  });

  it('a body that drifts from the schema fails both checks', () => {
    const drifted = { ok: true, vocabSize: 0, wiped: true };
    expect(v.is(resetModelResultSchema, drifted)).toBe(false);
    expect(
      validateJson(openApiDocument, openApiDocument.components.schemas.ResetModelResult, drifted),
    ).toEqual(['$: unexpected property "wiped"']);
  });
});
