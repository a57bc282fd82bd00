import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, upstashCredentials } from '../../lib/config/index.js';
import { configSchema } from '../../lib/config/schema.js';

describe('configuration', () => {
  it('has working defaults with no variables at all', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: '.data',
      SESSION_LIMIT_FREE: 20,
      SESSION_LIMIT_SIGNED_IN: 50,
    });
    expect(upstashCredentials(config)).toBeUndefined();
  });

  it('stops with a message naming each invalid variable', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT: must be a whole number/);
    expect(() => parseConfig({ SESSION_LIMIT_FREE: '0' })).toThrow(/SESSION_LIMIT_FREE: must be at least 1/);
    expect(() => parseConfig({ UPSTASH_REDIS_REST_URL: 'not a url', UPSTASH_REDIS_REST_TOKEN: 't' })).toThrow(
      /UPSTASH_REDIS_REST_URL/,
    );
    expect(() => parseConfig({ OWNER_EMAIL: 'nobody' })).toThrow(/OWNER_EMAIL: must be an e-mail address/);
    expect(() => parseConfig({ LLM_VISION: 'maybe' })).toThrow(/LLM_VISION/);
  });

  it('requires the REST URL and token together and accepts the Vercel KV names', () => {
    expect(() => parseConfig({ UPSTASH_REDIS_REST_URL: 'https://x.upstash.io' })).toThrow(
      /must be set together/,
    );
    const config = parseConfig({ KV_REST_API_URL: 'https://kv.example', KV_REST_API_TOKEN: 'secret' });
    expect(upstashCredentials(config)).toEqual({ url: 'https://kv.example', token: 'secret' });
  });

  it('treats empty values as unset', () => {
    expect(parseConfig({ PORT: '', LLM_BASE_URL: ' ' }).PORT).toBe(3000);
  });
});

describe("README's Configuration table", () => {
  it('names every variable the service reads', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Documentation'));
    const missing = Object.keys(configSchema.entries).filter((name) => !table.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
