import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  cacheKey,
  createWikipediaClient,
  type WikiCache,
  type WikipediaClientOptions,
} from '../../lib/wiki/index.js';
import { startWikipediaStandin, type WikipediaStandin } from '../support/wikipedia-standin.js';

const USER_AGENT = 'ngram-chat-backend-tests/1.0 (https://example.org/contact; tests@example.org)';

/** A cache in memory that records what was written. */
function memoryCache() {
  const values = new Map<string, string>();
  const writes: { key: string; value: string; ttlSeconds?: number }[] = [];
  const cache: WikiCache = {
    async get(key) {
      return values.get(key) ?? null;
    },
    async set(key, value, options) {
      values.set(key, value);
      writes.push({ key, value, ttlSeconds: options?.ttlSeconds });
      return true;
    },
  };
  return { cache, values, writes };
}

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('createWikipediaClient', () => {
  let standin: WikipediaStandin;

  beforeAll(async () => {
    standin = await startWikipediaStandin({ slowMs: 2000 });
  });
  afterAll(async () => {
    await standin.close();
  });
  beforeEach(() => {
    standin.requests.length = 0;
  });

  const client = (options: Partial<WikipediaClientOptions> = {}) =>
    createWikipediaClient({
      baseUrl: standin.baseUrl,
      timeoutMs: 1500,
      userAgent: USER_AGENT,
      cacheSeconds: 600,
      ...options,
    });

  describe('lookup kinds', () => {
    it('finds an article and returns its title, desktop URL, extract and description', async () => {
      const result = await client().lookup('Alan Turing');
      expect(result).toEqual({
        kind: 'found',
        title: 'Alan Turing',
        url: 'https://en.wikipedia.org/wiki/Alan_Turing',
        extract: expect.stringMatching(/^Alan Mathison Turing \(23 June 1912/),
        description: 'English computer scientist (1912–1954)',
      });
    });

    it('searches with limit=3, then asks for the summary of the best hit', async () => {
      await client().lookup('Alan Turing born');
      expect(standin.requests.map((request) => request.pathname)).toEqual([
        '/w/rest.php/v1/search/page',
        '/api/rest_v1/page/summary/Alan_Turing',
      ]);
      expect(standin.requests[0].params).toEqual({ q: 'Alan Turing born', limit: '3' });
    });

    it('sends the configured User-Agent on every request', async () => {
      await client().lookup('photosynthesis');
      expect(standin.requests).toHaveLength(2);
      for (const request of standin.requests) {
        expect(request.userAgent).toBe(USER_AGENT);
        expect(request.accept).toBe('application/json');
      }
    });

    it('puts the title in the summary path with underscores, percent-encoded', async () => {
      const band = await client().lookup('AC/DC');
      expect(band).toMatchObject({
        kind: 'found',
        title: 'AC/DC',
        url: 'https://en.wikipedia.org/wiki/AC/DC',
      });
      expect(standin.requests[1].url).toBe('/api/rest_v1/page/summary/AC%2FDC');

      standin.requests.length = 0;
      const planet = await client().lookup('planet');
      expect(planet).toMatchObject({ kind: 'found', url: 'https://en.wikipedia.org/wiki/Mercury_(planet)' });
      expect(standin.requests[1].url).toBe('/api/rest_v1/page/summary/Mercury_(planet)');
    });

    it('reports a disambiguation page as such, with its URL', async () => {
      const result = await client().lookup('Mercury');
      expect(result).toEqual({
        kind: 'disambiguation',
        title: 'Mercury',
        url: 'https://en.wikipedia.org/wiki/Mercury',
        extract: expect.stringContaining('Mercury commonly refers to'),
      });
    });

    it('reports no results for an empty search, without asking for a summary', async () => {
      const result = await client().lookup('  zzxqv   florbnitz ');
      expect(result).toEqual({ kind: 'no_results', query: 'zzxqv florbnitz' });
      expect(standin.requests).toHaveLength(1);
    });

    it('reports no results for a blank query without calling the encyclopedia', async () => {
      expect(await client().lookup('   ')).toEqual({ kind: 'no_results', query: '' });
      expect(standin.requests).toHaveLength(0);
    });

    it('reports no results when the best hit has no summary any more (404)', async () => {
      expect(await client().lookup('vanished')).toEqual({ kind: 'no_results', query: 'vanished' });
    });

    it('accepts a base URL with a trailing slash', async () => {
      const result = await client({ baseUrl: `${standin.baseUrl}/` }).lookup('photosynthesis');
      expect(result.kind).toBe('found');
      expect(standin.requests[0].pathname).toBe('/w/rest.php/v1/search/page');
    });
  });

  describe('encyclopedia trouble', () => {
    it('reports unavailable on a 5xx from the search', async () => {
      expect(await client().lookup('explode')).toEqual({
        kind: 'unavailable',
        reason: 'HTTP 503 from the search',
      });
    });

    it('reports unavailable on a 5xx from the summary', async () => {
      expect(await client().lookup('brokensummary')).toEqual({
        kind: 'unavailable',
        reason: 'HTTP 500 from the summary',
      });
    });

    it('reports unavailable on malformed JSON', async () => {
      expect(await client().lookup('garbled')).toEqual({
        kind: 'unavailable',
        reason: 'malformed JSON from the search',
      });
    });

    it('reports unavailable on JSON of the wrong shape', async () => {
      expect(await client().lookup('oddshape')).toEqual({
        kind: 'unavailable',
        reason: 'unexpected JSON from the search',
      });
      expect(await client().lookup('badshape')).toEqual({
        kind: 'unavailable',
        reason: 'unexpected JSON from the summary',
      });
    });

    it('gives up after timeoutMs when the encyclopedia is slow', async () => {
      const started = Date.now();
      const result = await client({ timeoutMs: 300 }).lookup('sluggish');
      expect(result).toEqual({ kind: 'unavailable', reason: 'timed out after 300 ms' });
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it('reports unavailable when nothing listens at the base URL', async () => {
      const port = await closedPort();
      const result = await client({ baseUrl: `http://127.0.0.1:${port}` }).lookup('Alan Turing');
      expect(result).toEqual({ kind: 'unavailable', reason: 'network error: ECONNREFUSED' });
    });
  });

  describe('cache', () => {
    it('serves a second lookup of the same query from the cache', async () => {
      const { cache, writes } = memoryCache();
      const wiki = client({ cache, cacheSeconds: 900 });
      const first = await wiki.lookup('Alan Turing');
      expect(standin.requests).toHaveLength(2);
      expect(writes).toEqual([{ key: 'wiki:v1:alan turing', value: JSON.stringify(first), ttlSeconds: 900 }]);

      const second = await wiki.lookup('  alan   TURING ');
      expect(second).toEqual(first);
      expect(standin.requests).toHaveLength(2);
    });

    it('caches disambiguations and empty searches too', async () => {
      const { cache, values } = memoryCache();
      const wiki = client({ cache });
      await wiki.lookup('Mercury');
      await wiki.lookup('zzxqv');
      expect(standin.requests).toHaveLength(3);
      await wiki.lookup('Mercury');
      await wiki.lookup('zzxqv');
      expect(standin.requests).toHaveLength(3);
      expect(JSON.parse(values.get(cacheKey('zzxqv')) ?? 'null')).toEqual({
        kind: 'no_results',
        query: 'zzxqv',
      });
    });

    it('does not cache an unavailable encyclopedia', async () => {
      const { cache, writes } = memoryCache();
      const wiki = client({ cache });
      await wiki.lookup('explode');
      await wiki.lookup('explode');
      expect(standin.requests).toHaveLength(2);
      expect(writes).toEqual([]);
    });

    it('does not cache when cacheSeconds is 0', async () => {
      const { cache, writes } = memoryCache();
      await client({ cache, cacheSeconds: 0 }).lookup('Alan Turing');
      expect(writes).toEqual([]);
    });

    it('still looks up when the cache fails', async () => {
      const failing: WikiCache = {
        get: () => Promise.reject(new Error('store down')),
        set: () => Promise.reject(new Error('store down')),
      };
      const result = await client({ cache: failing }).lookup('Alan Turing');
      expect(result.kind).toBe('found');
    });

    it('treats a cached value it cannot read as a miss', async () => {
      const { cache, values } = memoryCache();
      values.set(cacheKey('Alan Turing'), '{"kind":"found","title":');
      values.set(cacheKey('photosynthesis'), JSON.stringify({ kind: 'unavailable', reason: 'x' }));
      expect((await client({ cache }).lookup('Alan Turing')).kind).toBe('found');
      expect((await client({ cache }).lookup('photosynthesis')).kind).toBe('found');
      expect(standin.requests).toHaveLength(4);
    });
  });
});

describe('startWikipediaStandin', () => {
  it('ends a response still being delayed when it closes', async () => {
    const standin = await startWikipediaStandin({ slowMs: 60_000 });
    const pending = fetch(`${standin.baseUrl}/w/rest.php/v1/search/page?q=sluggish&limit=3`).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await standin.close();
    expect(await pending).toBe('cut');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
