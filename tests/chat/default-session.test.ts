import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { mulberry32 } from '../../lib/reply/index.js';
import type { Services } from '../../lib/services/index.js';
import { SMALL_CORPUS } from '../support/corpus.js';
import { type OidcStandin, startOidcStandin } from '../support/oidc-standin.js';
import { postJson, redisServices } from '../support/services.js';

const URL = 'http://127.0.0.1/api/chat';
const LIMIT = 3;

describe('POST /api/chat without a sessionId: a default session per client', () => {
  let oidc: OidcStandin;
  let services: Services;
  let api: Endpoint;

  beforeAll(async () => {
    oidc = await startOidcStandin({ audience: 'chat-app' });
    services = await redisServices(
      {
        SESSION_LIMIT_FREE: String(LIMIT),
        SESSION_LIMIT_SIGNED_IN: String(LIMIT + 2),
        TRUST_PROXY_HEADER: 'x-real-ip',
        OIDC_ISSUER: oidc.issuer,
        OIDC_AUDIENCE: 'chat-app',
      },
      { random: mulberry32(3) },
    );
    await services.model.train(SMALL_CORPUS);
    api = endpoint(chatHandlers(() => services));
  });
  afterAll(() => oidc.close());

  const send = (body: Record<string, unknown>, headers: Record<string, string>) =>
    api.fetch(postJson(URL, { message: 'tell me about the light', ...body }, headers));

  it('lets one address spend its own default allowance without touching another address', async () => {
    const first = { 'x-real-ip': '203.0.113.1' };
    const statuses: number[] = [];
    for (let index = 0; index < LIMIT + 1; index++) statuses.push((await send({}, first)).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
    // Naming "default" is the same client's default session, not a shared one.
    const named = await send({ sessionId: 'default' }, first);
    expect(named.status).toBe(429);
    expect(await named.json()).toMatchObject({ code: 'session_limit', limit: LIMIT });

    const second = await send({}, { 'x-real-ip': '203.0.113.2' });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-session-remaining')).toBe(String(LIMIT - 1));
  });

  it('keeps the default history per client: one client never sees another one’s turns', async () => {
    const address = { 'x-real-ip': '203.0.113.3' };
    expect((await send({ message: 'zebras and quokkas' }, address)).status).toBe(200);
    const keys = await services.store.lrange('session-turns:default', 0, -1);
    expect(keys).toEqual([]);
  });

  it('scopes a signed-in user’s default session to the user, wherever the requests come from', async () => {
    const token = await oidc.mintToken({ sub: 'user-default-1' });
    const auth = { Authorization: `Bearer ${token}` };
    const statuses: number[] = [];
    for (let index = 0; index < LIMIT + 3; index++) {
      const response = await send({}, { ...auth, 'x-real-ip': `198.51.100.${index + 1}` });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(LIMIT + 2).fill(200), 429]);
    // The same addresses without the token still have their own, untouched default sessions.
    expect((await send({}, { 'x-real-ip': '198.51.100.1' })).status).toBe(200);
  });

  it('still shares a session the clients name explicitly', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < LIMIT + 1; index++) {
      const response = await send({ sessionId: 'shared-room' }, { 'x-real-ip': `192.0.2.${index + 1}` });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
  });
});
