import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { endpoint, HttpError, json, readJson, validate } from '../../lib/http/index.js';
import { setLogLevel } from '../../lib/log/index.js';
import { StoreUnavailableError } from '../../lib/store/index.js';

const echo = endpoint({
  async POST(request) {
    const body = validate(
      v.object({ name: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty')) }),
      await readJson(request, 100),
    );
    return json({ hello: body.name });
  },
  GET() {
    throw new Error('secret internal detail');
  },
});

function post(body: string, contentType = 'application/json') {
  return echo.fetch(
    new Request('http://test/api/echo', { method: 'POST', headers: { 'Content-Type': contentType }, body }),
  );
}

describe('endpoint wrapper (HTTP conventions)', () => {
  it('answers with CORS headers for any origin', async () => {
    const response = await post('{"name":"Ada"}');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ hello: 'Ada' });
  });

  it('answers an OPTIONS preflight with 204 and the allowed methods', async () => {
    const response = await echo.fetch(new Request('http://test/api/echo', { method: 'OPTIONS' }));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, GET, HEAD, OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('returns 405 with Allow and a JSON error for other methods', async () => {
    const response = await echo.fetch(new Request('http://test/api/echo', { method: 'DELETE' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, GET, HEAD, OPTIONS');
    expect(await response.json()).toMatchObject({ code: 'method_not_allowed' });
  });

  it('returns 415 for a body that is not JSON', async () => {
    const response = await post('name=Ada', 'application/x-www-form-urlencoded');
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('returns 400 for malformed or empty JSON', async () => {
    for (const body of ['{"name":', '', '   ']) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_json' });
    }
  });

  it('returns 400 naming the field for a value of the wrong type', async () => {
    const response = await post('{"name":42}');
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ code: 'validation_failed', field: 'name' });
    expect(body.error).toContain('name');
  });

  it('returns 400 for JSON that is not an object', async () => {
    const response = await post('[1,2]');
    expect(response.status).toBe(400);
  });

  it('returns 413 past the body cap without reading it all', async () => {
    const response = await post(JSON.stringify({ name: 'x'.repeat(500) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('returns 500 without the stack or message for an unexpected exception, and logs it', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    setLogLevel('error');
    const response = await echo.fetch(new Request('http://test/api/echo'));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toContain('at ');
    expect(JSON.parse(text)).toMatchObject({ code: 'internal_error' });
    expect(spy).toHaveBeenCalled();
    expect(String(spy.mock.calls[0]?.[0])).toContain('secret internal detail');
    spy.mockRestore();
    setLogLevel('silent');
  });

  it('maps every HttpError to its status with Retry-After when given', async () => {
    const limited = endpoint({
      GET() {
        throw new HttpError('rate_limited', 'Slow down.', { retryAfter: 7 }, { 'Retry-After': '7' });
      },
    });
    const response = await limited.fetch(new Request('http://test/x'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual({ error: 'Slow down.', code: 'rate_limited', retryAfter: 7 });
  });

  it('answers a store failure with 503 store_unavailable, logging the backend error and showing none of it', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    setLogLevel('error');
    const down = endpoint({
      GET() {
        throw new StoreUnavailableError(
          'incr',
          new Error('connect ECONNREFUSED 10.0.0.5:6379 session-count:abc'),
        );
      },
    });
    const response = await down.fetch(new Request('http://test/x'));
    expect(response.status).toBe(503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ code: 'store_unavailable', retryAfter: expect.any(Number) });
    expect(text).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|session-count|incr/);
    expect(String(spy.mock.calls[0]?.[0])).toContain('ECONNREFUSED');
    spy.mockRestore();
    setLogLevel('silent');
  });

  it('sends X-Content-Type-Options: nosniff on every answer: success, preflight, 405, 4xx and 500', async () => {
    const responses = [
      await post('{"name":"Ada"}'),
      await echo.fetch(new Request('http://test/api/echo', { method: 'OPTIONS' })),
      await echo.fetch(new Request('http://test/api/echo', { method: 'DELETE' })),
      await post('{'),
      await echo.fetch(new Request('http://test/api/echo')),
    ];
    expect(responses.map((response) => response.headers.get('x-content-type-options'))).toEqual(
      Array(responses.length).fill('nosniff'),
    );
  });
});
