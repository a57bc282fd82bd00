import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../lib/auth/index.js';
import { HttpError } from '../../lib/http/errors.js';

const withAuthorization = (value?: string) =>
  new Request('http://127.0.0.1/api/chat', value === undefined ? {} : { headers: { authorization: value } });

describe('bearerToken', () => {
  it('returns undefined when there is no Authorization header', () => {
    expect(bearerToken(withAuthorization())).toBeUndefined();
    expect(bearerToken(withAuthorization('   '))).toBeUndefined();
  });

  it('returns the token of a Bearer header, whatever the case of the scheme', () => {
    expect(bearerToken(withAuthorization('Bearer abc.def.ghi'))).toBe('abc.def.ghi');
    expect(bearerToken(withAuthorization('bearer   token-with!chars'))).toBe('token-with!chars');
  });

  it('refuses any other form with 401 unauthorized', () => {
    for (const value of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer two tokens', 'abc.def.ghi']) {
      let caught: unknown;
      try {
        bearerToken(withAuthorization(value));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(HttpError);
      expect((caught as HttpError).code).toBe('unauthorized');
      expect((caught as HttpError).status).toBe(401);
    }
  });
});
