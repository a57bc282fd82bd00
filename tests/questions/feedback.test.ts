import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { chatCompletionsHandlers } from '../../lib/openai/index.js';
import { adminQuestionsHandlers, feedbackHandlers, questionKeys } from '../../lib/questions/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { uiChatHandlers } from '../../lib/ui-chat/index.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { embeddedServices, postJson, redisServices } from '../support/services.js';

const OWNER = 'owner@example.com';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
const owner = { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ADMIN_TOKEN}` };
const OFF_DOCUMENT = [
  'What is the capital of Brazil?',
  'Who won the World Cup in 2018?',
  'How do I configure Kubernetes ingress?',
  'What is the boiling point of mercury?',
  'When was Napoleon born?',
  'How tall is Mount Everest?',
  'Which planet has the most moons?',
];

type Backend = 'redis' | 'embedded';

async function servicesOn(backend: Backend, env: Record<string, string> = {}, overrides = {}) {
  const all = { OWNER_EMAIL: OWNER, ADMIN_TOKEN, ...env };
  const services =
    backend === 'redis'
      ? await redisServices(all, { random: mulberry32(7), ...overrides })
      : embeddedServices(all, { random: mulberry32(7), ...overrides });
  await services.model.train(SMALL_CORPUS);
  return services;
}

function api(services: Services) {
  return {
    chat: endpoint(chatHandlers(() => services)),
    feedback: endpoint(feedbackHandlers(() => services)),
    questions: endpoint(adminQuestionsHandlers(() => services)),
  };
}

async function ask(chat: Endpoint, message: string, address = '192.0.2.10') {
  const response = await chat.fetch(
    postJson('http://127.0.0.1/api/chat', { message }, { 'x-real-ip': address }),
  );
  expect(response.status).toBe(200);
  return response.json();
}

function rate(feedback: Endpoint, body: unknown, address = '192.0.2.20') {
  return feedback.fetch(postJson('http://127.0.0.1/api/feedback', body, { 'x-real-ip': address }));
}

async function questions(endpointOf: Endpoint, query: string, headers: Record<string, string> = owner) {
  return endpointOf.fetch(new Request(`http://127.0.0.1/api/admin/questions?${query}`, { headers }));
}

describe.each<Backend>(['redis', 'embedded'])('POST /api/feedback (%s store)', (backend) => {
  let services: Services;
  let endpoints: ReturnType<typeof api>;
  beforeAll(async () => {
    services = await servicesOn(backend, { RATE_LIMIT_REQUESTS: '40' });
    endpoints = api(services);
  });

  it('gives every Variant A reply a replyId that a rating finds, and a second rating replaces the first', async () => {
    const reply = await ask(endpoints.chat, 'What flows to the sea?');
    expect(reply.replyId).toMatch(/^reply-[0-9a-f]{32}$/);
    const up = await rate(endpoints.feedback, { replyId: reply.replyId, rating: 'up' });
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ ok: true, replyId: reply.replyId, rating: 'up' });
    const down = await rate(endpoints.feedback, {
      replyId: reply.replyId,
      rating: 'down',
      comment: 'Too short.',
    });
    expect(down.status).toBe(200);
    const rating = JSON.parse((await services.store.get(questionKeys.rating(reply.replyId)))!);
    expect(rating).toEqual({ rating: 'down', comment: 'Too short.' });
    const stored = JSON.parse((await services.store.get(questionKeys.entry(reply.replyId)))!);
    expect(stored).toMatchObject({ question: 'What flows to the sea?' });
    const top = await (await questions(endpoints.questions, 'kind=top')).json();
    const entry = top.questions.find(
      (item: { question: string }) => item.question === 'What flows to the sea?',
    );
    expect(entry).toMatchObject({ count: 1, up: 0, down: 1, comments: ['Too short.'] });
  });

  it('stores the question, the reply and its sources, and never the address, session or user', async () => {
    const response = await endpoints.chat.fetch(
      postJson(
        'http://127.0.0.1/api/chat',
        { message: 'Is wisdom better than rubies?', sessionId: 'private-session', userId: 'user-42' },
        { 'x-real-ip': '203.0.113.77' },
      ),
    );
    const reply = await response.json();
    const all = (await services.store.get(questionKeys.entry(reply.replyId)))!;
    const stored = JSON.parse(all);
    expect(Object.keys(stored).sort()).toEqual(['askedAt', 'level', 'question', 'reply', 'sources']);
    for (const secret of ['203.0.113.77', 'private-session', 'user-42']) expect(all).not.toContain(secret);
    expect(stored.reply).toBe(reply.response);
    expect(stored.sources.length).toBe(reply.sources.length);
  });

  it('keeps a record QUESTION_LOG_DAYS days in the store', async () => {
    const reply = await ask(endpoints.chat, 'Is a good name better than ointment?');
    const ttl = await services.store.ttl(questionKeys.entry(reply.replyId));
    expect(ttl).toBeGreaterThan(30 * 86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(30 * 86_400);
  });

  const bad: [string, unknown, string][] = [
    ['a missing rating', { replyId: 'reply-abc' }, 'rating'],
    ['a wrong rating', { replyId: 'reply-abc', rating: 'meh' }, 'rating'],
    [
      'a comment over 1000 characters',
      { replyId: 'reply-abc', rating: 'down', comment: 'x'.repeat(1001) },
      'comment',
    ],
    ['a missing replyId', { rating: 'up' }, 'replyId'],
    ['a replyId with bad characters', { replyId: '../etc', rating: 'up' }, 'replyId'],
    ['a non-string comment', { replyId: 'reply-abc', rating: 'up', comment: 5 }, 'comment'],
  ];
  it.each(bad)('answers 400 naming the field for %s', async (_name, body, field) => {
    const response = await rate(endpoints.feedback, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'validation_failed', field });
  });

  it('answers 400 for malformed JSON, 404 reply_not_found for a replyId that is not ours', async () => {
    expect((await rate(endpoints.feedback, '{"replyId":')).status).toBe(400);
    const response = await rate(endpoints.feedback, {
      replyId: 'reply-0123456789abcdef0123456789abcdef',
      rating: 'up',
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'reply_not_found' });
  });

  it('accepts a 1000-character comment', async () => {
    const reply = await ask(endpoints.chat, 'Does the light shine in the darkness?');
    const response = await rate(endpoints.feedback, {
      replyId: reply.replyId,
      rating: 'down',
      comment: 'y'.repeat(1000),
    });
    expect(response.status).toBe(200);
  });
});

describe('POST /api/feedback: limits and QUESTION_LOG=off', () => {
  it('limits a flood of feedback per address as chat is limited (429 with Retry-After)', async () => {
    const services = await servicesOn('redis', { RATE_LIMIT_REQUESTS: '3', TRUST_PROXY_HEADER: 'x-real-ip' });
    const { chat, feedback } = api(services);
    const reply = await ask(chat, 'What flows to the sea?', '198.51.100.1');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await rate(feedback, { replyId: reply.replyId, rating: 'up' }, '198.51.100.2')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await rate(feedback, { replyId: reply.replyId, rating: 'up' }, '198.51.100.2');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('stores nothing, gives no replyId and answers 404 feedback_off', async () => {
    const services = await servicesOn('embedded', { QUESTION_LOG: 'off' });
    const { chat, feedback, questions: list } = api(services);
    const reply = await ask(chat, 'What flows to the sea?');
    expect(reply.replyId).toBeUndefined();
    expect(await services.store.countKeys(questionKeys.prefix)).toBe(0);
    const response = await rate(feedback, {
      replyId: 'reply-0123456789abcdef0123456789abcdef',
      rating: 'up',
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'feedback_off' });
    const body = await (await questions(list, 'kind=top')).json();
    expect(body).toMatchObject({ logging: false, questions: [] });
  });
});

describe('replyId on every way in', () => {
  let services: Services;
  beforeAll(async () => {
    services = await servicesOn('embedded');
  });

  it('Variant B carries a replyId a rating finds', async () => {
    const variantB = endpoint(variantBChatHandlers(() => services));
    const body = await (
      await variantB.fetch(postJson('http://127.0.0.1/api/api/chat', { message: 'What flows to the sea?' }))
    ).json();
    expect(body.replyId).toMatch(/^reply-/);
    expect((await rate(api(services).feedback, { replyId: body.replyId, rating: 'up' })).status).toBe(200);
  });

  it('/api/v1 uses the completion id as the replyId', async () => {
    const v1 = endpoint(chatCompletionsHandlers(() => services));
    const response = await v1.fetch(
      postJson('http://127.0.0.1/api/v1/chat/completions', {
        model: 'local-expert',
        messages: [{ role: 'user', content: 'What flows to the sea?' }],
      }),
    );
    const body = await response.json();
    expect(body.id).toMatch(/^chatcmpl-/);
    expect((await rate(api(services).feedback, { replyId: body.id, rating: 'down' })).status).toBe(200);
  });

  it('/api/ui/chat sends the replyId in the message metadata', async () => {
    const ui = endpoint(uiChatHandlers(() => services));
    const response = await ui.fetch(
      postJson('http://127.0.0.1/api/ui/chat', {
        id: 'conversation-1',
        messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'What flows to the sea?' }] }],
      }),
    );
    const text = await response.text();
    const finish = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)))
      .find((chunk) => chunk.type === 'finish');
    expect(finish.messageMetadata.replyId).toMatch(/^reply-/);
    expect(
      (await rate(api(services).feedback, { replyId: finish.messageMetadata.replyId, rating: 'up' })).status,
    ).toBe(200);
  });
});

describe.each<Backend>(['redis', 'embedded'])('GET /api/admin/questions (%s store)', (backend) => {
  let services: Services;
  let endpoints: ReturnType<typeof api>;
  beforeAll(async () => {
    services = await servicesOn(backend, { RATE_LIMIT_REQUESTS: '100' });
    endpoints = api(services);
    for (const question of OFF_DOCUMENT) await ask(endpoints.chat, question);
    // Three asked again, worded a little differently: case, punctuation and stop words aside.
    await ask(endpoints.chat, 'what is the CAPITAL of brazil');
    await ask(endpoints.chat, 'When was Napoleon born?!');
    await ask(endpoints.chat, 'how tall is mount everest');
    await ask(endpoints.chat, 'What flows to the sea?');
  });

  it('lists seven off-document questions, three asked twice, as seven entries counted 2,2,2,1,1,1,1', async () => {
    const response = await questions(endpoints.questions, 'kind=unanswered&days=7');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.questions.map((entry: { count: number }) => entry.count)).toEqual([2, 2, 2, 1, 1, 1, 1]);
    expect(body.questions[0]).toMatchObject({ up: 0, down: 0, comments: [], sources: [] });
    expect(new Date(body.questions[0].lastAskedAt).toISOString()).toBe(body.questions[0].lastAskedAt);
    const today = body.perDay[body.perDay.length - 1];
    expect(body.perDay).toHaveLength(7);
    expect(today).toMatchObject({ unanswered: 10, answered: 1 });
  });

  it('lists a thumbs-down under disliked with its question, reply and comment', async () => {
    const reply = await ask(endpoints.chat, 'Is the sea ever full?');
    await rate(endpoints.feedback, { replyId: reply.replyId, rating: 'down', comment: 'Wrong sea.' });
    const body = await (await questions(endpoints.questions, 'kind=disliked')).json();
    expect(body.questions).toHaveLength(1);
    expect(body.questions[0]).toMatchObject({
      question: 'Is the sea ever full?',
      reply: reply.response,
      down: 1,
      comments: ['Wrong sea.'],
    });
  });

  it('answers 400 for a bad kind or days, 401 without credentials, 403 for another e-mail', async () => {
    for (const query of ['kind=worst', 'days=0', 'days=abc', 'days=1000', 'days=-1']) {
      const response = await questions(endpoints.questions, query);
      expect(response.status, query).toBe(400);
    }
    expect((await questions(endpoints.questions, 'kind=top', {})).status).toBe(401);
    const other = { ...owner, 'X-Owner-Email': 'someone@example.com' };
    expect((await questions(endpoints.questions, 'kind=top', other)).status).toBe(403);
  });
});

describe('the question log expires', () => {
  it('forgets a reply after QUESTION_LOG_DAYS: gone from the list, and a late rating is 404', async () => {
    let now = Date.UTC(2026, 0, 10, 12);
    const services = await servicesOn('redis', { QUESTION_LOG_DAYS: '2' }, { now: () => now });
    const { chat, feedback, questions: list } = api(services);
    const reply = await ask(chat, 'What is the capital of Brazil?');
    expect((await (await questions(list, 'kind=unanswered')).json()).questions).toHaveLength(1);
    now += 2 * 86_400_000 + 1000;
    expect((await (await questions(list, 'kind=unanswered')).json()).questions).toHaveLength(0);
    const late = await rate(feedback, { replyId: reply.replyId, rating: 'up' });
    expect(late.status).toBe(404);
    const ttl = await services.store.ttl(questionKeys.entry(reply.replyId));
    expect(ttl).toBeLessThanOrEqual(2 * 86_400);
  });
});

afterAll(() => undefined);

describe('the question log store', () => {
  it('names the UTC day of any time, alternating days and their edges included', async () => {
    const { dateOf } = await import('../../lib/questions/log.js');
    const day = 86_400_000;
    const times = [0, day - 1, day, -1, -day, -day - 1, Date.UTC(2026, 0, 1) - 1, Date.UTC(2026, 0, 1)];
    for (let i = 0; i < 500; i++)
      times.push(Date.UTC(2026, 0, 1) + ((i * 7_919_993) % (40 * day)) - 20 * day);
    for (const ms of [...times, ...times.reverse()])
      expect(dateOf(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
  });

  it('reads back more records than one round trip carries, newest first', async () => {
    const { createEmbeddedStore } = await import('../../lib/store/index.js');
    const { createQuestionLog } = await import('../../lib/questions/index.js');
    let now = Date.UTC(2026, 2, 1, 9);
    const log = createQuestionLog(createEmbeddedStore(), { enabled: true, days: 30, now: () => now });
    for (let i = 0; i < 1205; i++) {
      now += 1000;
      await log.record({
        replyId: `reply-${i}`,
        question: `question ${i}`,
        reply: 'r',
        sources: [],
        level: 'none',
      });
    }
    const read = await log.read(7);
    expect(read).toHaveLength(1205);
    expect(read[0]!.question).toBe('question 1204');
    expect(read[1204]!.question).toBe('question 0');
  });
});

describe.each<Backend>(['redis', 'embedded'])(
  'replies logged before the JSON entries (%s store)',
  (backend) => {
    it('are still listed, rated (a rating replacing the last) and forgotten with their expiry', async () => {
      let now = Date.UTC(2026, 3, 5, 12);
      const services = await servicesOn(backend, { QUESTION_LOG_DAYS: '3' }, { now: () => now });
      const { chat, feedback, questions: list } = api(services);
      // A record as the hash layout wrote it, with its day list, beside one of today's layout.
      const legacyId = 'reply-0123456789abcdef0123456789abcdef';
      await services.store
        .batch()
        .hset(questionKeys.reply(legacyId), {
          question: 'Who built the ark?',
          reply: 'I don’t know.',
          sources: '[]',
          level: 'none',
          askedAt: now - 1000,
        })
        .expire(questionKeys.reply(legacyId), 3 * 86_400)
        .rpush(questionKeys.day('2026-04-05'), legacyId)
        .exec();
      const fresh = await ask(chat, 'Who built the ark?');
      expect((await rate(feedback, { replyId: legacyId, rating: 'up' })).status).toBe(200);
      expect((await rate(feedback, { replyId: legacyId, rating: 'down', comment: 'Noah.' })).status).toBe(
        200,
      );
      expect((await rate(feedback, { replyId: fresh.replyId, rating: 'down' })).status).toBe(200);
      const body = await (await questions(list, 'kind=top')).json();
      const entry = body.questions.find(
        (item: { question: string }) => item.question === 'Who built the ark?',
      );
      expect(entry).toMatchObject({ count: 2, up: 0, down: 2, comments: ['Noah.'] });
      expect(await services.store.hgetall(questionKeys.reply(legacyId))).toMatchObject({
        rating: 'down',
        comment: 'Noah.',
      });
      // The rating expires with its reply.
      const ttl = await services.store.ttl(questionKeys.rating(fresh.replyId));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(3 * 86_400);
      now += 3 * 86_400_000 + 1000;
      expect((await (await questions(list, 'kind=top')).json()).questions).toHaveLength(0);
      expect((await rate(feedback, { replyId: legacyId, rating: 'up' })).status).toBe(404);
      expect((await rate(feedback, { replyId: fresh.replyId, rating: 'up' })).status).toBe(404);
    });
  },
);
