import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminExportHandlers,
  adminResetModelHandlers,
  adminSessionHandlers,
  adminStatsHandlers,
} from '../../lib/admin/handlers.js';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import type { Services } from '../../lib/services/index.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';
import { embeddedServices, postJson, redisServices } from '../support/services.js';

const OWNER = 'Owner@Example.com';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
const base = 'http://127.0.0.1/api/admin';

function admin(services: Services) {
  return {
    stats: endpoint(adminStatsHandlers(() => services)),
    reset: endpoint(adminResetModelHandlers(() => services)),
    session: endpoint(adminSessionHandlers(() => services)),
    export: endpoint(adminExportHandlers(() => services)),
  };
}

const ownerHeaders = { 'X-Owner-Email': 'owner@example.com', Authorization: `Bearer ${ADMIN_TOKEN}` };

describe('admin endpoints: who may call them', () => {
  let oidc: OidcStandin;
  let services: Services;
  beforeAll(async () => {
    oidc = await startOidcStandin({ audience: 'chat-app' });
    services = embeddedServices({
      OWNER_EMAIL: OWNER,
      ADMIN_TOKEN,
      OIDC_ISSUER: oidc.issuer,
      OIDC_AUDIENCE: 'chat-app',
    });
  });
  afterAll(() => oidc.close());

  const stats = () => endpoint(adminStatsHandlers(() => services));

  it('answers 401 without X-Owner-Email', async () => {
    const response = await stats().fetch(
      new Request(`${base}/stats`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('answers 403 for another address, even with the admin token', async () => {
    const response = await stats().fetch(
      new Request(`${base}/stats`, {
        headers: { 'X-Owner-Email': 'someone@example.com', Authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
    );
    expect(response.status).toBe(403);
  });

  it('answers 403 for the right address with no proof, since an address is no secret', async () => {
    const response = await stats().fetch(
      new Request(`${base}/stats`, { headers: { 'X-Owner-Email': OWNER } }),
    );
    expect(response.status).toBe(403);
  });

  it('answers 403 for a wrong admin token', async () => {
    const response = await stats().fetch(
      new Request(`${base}/stats`, {
        headers: { 'X-Owner-Email': OWNER, Authorization: 'Bearer wrong-token-wrong-token' },
      }),
    );
    expect(response.status).toBe(403);
  });

  it('lets the owner in with the admin token, the address compared without case', async () => {
    const response = await stats().fetch(new Request(`${base}/stats`, { headers: ownerHeaders }));
    expect(response.status).toBe(200);
  });

  it("lets the owner in with their own verified ID token, and refuses someone else's", async () => {
    const ownerToken = await oidc.mintToken({ sub: 'o', email: 'owner@example.com', email_verified: true });
    const ok = await stats().fetch(
      new Request(`${base}/stats`, {
        headers: { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ownerToken}` },
      }),
    );
    expect(ok.status).toBe(200);
    const otherToken = await oidc.mintToken({ sub: 'x', email: 'x@example.com', email_verified: true });
    const refused = await stats().fetch(
      new Request(`${base}/stats`, {
        headers: { 'X-Owner-Email': OWNER, Authorization: `Bearer ${otherToken}` },
      }),
    );
    expect(refused.status).toBe(403);
  });

  it('is disabled with a 403 saying so when OWNER_EMAIL is unset', async () => {
    const open = embeddedServices({ ADMIN_TOKEN });
    const response = await endpoint(adminStatsHandlers(() => open)).fetch(
      new Request(`${base}/stats`, { headers: ownerHeaders }),
    );
    expect(response.status).toBe(403);
    const body = await response.json();
    expect(body.code).toBe('admin_disabled');
    expect(body.error).toMatch(/OWNER_EMAIL/);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const response = await stats().fetch(
      new Request(`${base}/stats`, { method: 'POST', headers: ownerHeaders }),
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('admin endpoints: what they do (on the real Redis)', () => {
  let services: Services;
  let calls: ReturnType<typeof admin>;
  beforeAll(async () => {
    services = await redisServices({ OWNER_EMAIL: OWNER, ADMIN_TOKEN, TRUST_PROXY_HEADER: 'x-real-ip' });
    calls = admin(services);
    await services.model.train('The light shines in the darkness.');
    await services.model.train('Wisdom is better than rubies.');
    const chat = endpoint(chatHandlers(() => services));
    await chat.fetch(postJson('http://127.0.0.1/api/chat', { message: 'light', sessionId: 'alpha' }));
    await chat.fetch(postJson('http://127.0.0.1/api/chat', { message: 'wisdom', sessionId: 'alpha' }));
    await chat.fetch(postJson('http://127.0.0.1/api/chat', { message: 'light', sessionId: 'beta' }));
  });

  it('stats counts sessions, messages, vocabulary and the corpus', async () => {
    const body = await (
      await calls.stats.fetch(new Request(`${base}/stats`, { headers: ownerHeaders }))
    ).json();
    expect(body).toMatchObject({
      sessions: { active: 2, total: 2 },
      messages: 3,
      vocabSize: 11,
      corpus: { chunks: 2, tokens: 13 },
      store: 'upstash',
    });
  });

  it('export returns the training corpus as text', async () => {
    const response = await calls.export.fetch(new Request(`${base}/export`, { headers: ownerHeaders }));
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(await response.text()).toBe(
      'The light shines in the darkness.\n\nWisdom is better than rubies.\n',
    );
  });

  it('deletes one session: 200, then 404; 400 without a valid id', async () => {
    const url = `${base}/session?id=beta`;
    expect(
      (await calls.session.fetch(new Request(url, { method: 'DELETE', headers: ownerHeaders }))).status,
    ).toBe(200);
    expect(
      (await calls.session.fetch(new Request(url, { method: 'DELETE', headers: ownerHeaders }))).status,
    ).toBe(404);
    const bad = await calls.session.fetch(
      new Request(`${base}/session?id=a%20b`, { method: 'DELETE', headers: ownerHeaders }),
    );
    expect(bad.status).toBe(400);
    expect(await services.store.get('session-count:alpha')).toBe('2');
  });

  it('deletes a client’s default session when told the client: its address or its user', async () => {
    const chat = endpoint(chatHandlers(() => services));
    // No sessionId: the message counts against the default session of 192.0.2.10 (postJson's address).
    const first = await chat.fetch(postJson('http://127.0.0.1/api/chat', { message: 'light' }));
    expect(first.headers.get('x-session-remaining')).toBe('19');
    const remove = (query: string) =>
      calls.session.fetch(
        new Request(`${base}/session?${query}`, { method: 'DELETE', headers: ownerHeaders }),
      );
    expect((await remove('id=default&address=192.0.2.99')).status).toBe(404);
    const deleted = await remove('id=default&address=192.0.2.10');
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ ok: true, sessionId: 'default', address: '192.0.2.10' });
    expect((await remove('id=default&address=192.0.2.10')).status).toBe(404);
    const again = await chat.fetch(postJson('http://127.0.0.1/api/chat', { message: 'light' }));
    expect(again.headers.get('x-session-remaining')).toBe('19');
    expect((await remove('id=default&user=someone')).status).toBe(404);
    for (const bad of [
      'id=default',
      'id=default&address=not-an-address',
      'id=default&address=192.0.2.10&user=someone',
      'id=default&user=',
      'id=beta&address=192.0.2.10',
    ]) {
      const response = await remove(bad);
      expect(response.status, bad).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'bad_request' });
    }
  });

  it('resets the model: vocabulary 0, corpus empty', async () => {
    const response = await calls.reset.fetch(
      new Request(`${base}/reset-model`, { method: 'POST', headers: ownerHeaders }),
    );
    expect(await response.json()).toEqual({ ok: true, vocabSize: 0 });
    expect(await services.model.vocabSize()).toBe(0);
    expect((await services.model.current()).vocabSize).toBe(0);
    expect(
      await (await calls.export.fetch(new Request(`${base}/export`, { headers: ownerHeaders }))).text(),
    ).toBe('');
  });
});
