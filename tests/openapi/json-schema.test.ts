import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lib/openapi/index.js';
import { assertSupportedSchema, validateJson } from '../support/json-schema.js';

const check = (name: string, value: unknown) =>
  validateJson(openApiDocument, { $ref: `#/components/schemas/${name}` }, value);

describe('the JSON Schema validator of the OpenAPI test', () => {
  it('accepts a body that matches, optional fields left out', () => {
    expect(
      check('ChatResponse', {
        response: 'hi',
        vocabSize: 3,
        usedExternal: false,
        sources: [],
        confidence: { score: 1, level: 'answer' },
      }),
    ).toEqual([]);
    expect(
      check('ChatResponse', {
        response: 'hi',
        thought: 't',
        vocabSize: 0,
        usedExternal: true,
        sources: [],
        confidence: { score: 0, level: 'none' },
      }),
    ).toEqual([]);
  });

  it('reports a missing required field, a wrong type, an extra field and a value out of range', () => {
    expect(
      check('ChatResponse', {
        vocabSize: 3,
        usedExternal: false,
        sources: [],
        confidence: { score: 1, level: 'answer' },
      }),
    ).toEqual(['$: missing required property "response"']);
    expect(
      check('ChatResponse', {
        response: 1,
        vocabSize: 3,
        usedExternal: false,
        sources: [],
        confidence: { score: 1, level: 'answer' },
      }),
    ).toEqual(['$.response: expected string, got number']);
    expect(
      check('ChatResponse', {
        response: 'a',
        vocabSize: 3,
        usedExternal: false,
        sources: [],
        confidence: { score: 1, level: 'answer' },
        extra: 1,
      }),
    ).toEqual(['$: unexpected property "extra"']);
    expect(
      check('ChatResponse', {
        response: 'a',
        vocabSize: -1,
        usedExternal: false,
        sources: [],
        confidence: { score: 1, level: 'answer' },
      }),
    ).toEqual(['$.vocabSize: -1 is below 0']);
    expect(
      check('TrainResponse', { ok: true, tokens: 1.5, vocabSize: 2, documentId: 'a', status: 'trained' }),
    ).toEqual(['$.tokens: expected integer, got number']);
  });

  it('checks enums, patterns, nested objects and arrays through $ref', () => {
    expect(check('VariantBChatRequest', { message: 'hi', mode: 'fast' })[0]).toMatch(
      /^\$\.mode: expected one of/,
    );
    expect(check('ChatRequest', { message: 'hi', sessionId: 'a b' })[0]).toMatch(/does not match/);
    expect(
      check('VariantBChatRequest', {
        message: 'hi',
        history: [{ role: 'user', content: 'x' }, { role: 'system' }],
      }),
    ).toEqual([
      '$.history[1]: missing required property "content"',
      '$.history[1].role: expected one of ["user","assistant"], got "system"',
    ]);
  });

  it('needs exactly one oneOf branch and every allOf branch', () => {
    const tooMany = { oneOf: [{ type: 'string' }, { type: 'string', minLength: 1 }] };
    expect(validateJson({}, tooMany, 'x')).toEqual(['$: matches 2 schemas of oneOf, expected exactly one']);
    expect(
      check('SessionLimitError', { error: 'spent', code: 'session_limit', limit: 3, remaining: 0 }),
    ).toEqual([]);
    expect(
      check('SessionLimitError', { error: 'spent', code: 'rate_limited', limit: 3, remaining: 0 }),
    ).toHaveLength(1);
    expect(check('RateLimitedError', { error: 'slow down', code: 'rate_limited' })).toEqual([
      '$: missing required property "retryAfter"',
    ]);
  });

  it('refuses a schema with a keyword it does not check', () => {
    expect(() => assertSupportedSchema({}, { type: 'object', propertyNames: { pattern: '^a' } })).toThrow(
      /unsupported keyword "propertyNames"/,
    );
    expect(() => assertSupportedSchema({}, { $ref: '#/components/schemas/Nope' })).toThrow(
      /does not resolve/,
    );
  });
});
