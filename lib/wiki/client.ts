import * as v from 'valibot';
import { searchResponseSchema, summaryResponseSchema } from './rest-schema.js';
import {
  cachedWikiLookupSchema,
  type WikiCache,
  type WikiLookup,
  type WikipediaClient,
  type WikipediaClientOptions,
} from './types.js';

/** How many search hits to ask for; the first is the one summarised. */
const SEARCH_LIMIT = 3;
/** Longer queries are cut here: they only make worse searches and longer cache keys. */
const MAX_QUERY_LENGTH = 300;

/**
 * A User-Agent in the form Wikimedia's policy asks for (name/version, purpose, library); add a
 * contact address in production through `userAgent`.
 */
export const defaultWikiUserAgent =
  'ngram-chat-backend/1.0 (chat answers grounded in Wikipedia summaries) node-fetch/undici';

/** A lookup step failed in a way that means "the encyclopedia could not be asked". */
class Unavailable extends Error {}

/**
 * A client for the Wikipedia REST APIs: search, then the summary of the best hit. Outcomes other
 * than `unavailable` are cached as JSON under `wiki:v1:<normalized query>`.
 */
export function createWikipediaClient(options: WikipediaClientOptions): WikipediaClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchFn = options.fetch ?? globalThis.fetch;
  const headers = { 'User-Agent': options.userAgent, Accept: 'application/json' };

  async function getJson<S extends v.GenericSchema>(
    url: string,
    schema: S,
    what: string,
    signal: AbortSignal,
  ): Promise<v.InferOutput<S> | 'not_found'> {
    const response = await fetchFn(url, { headers, signal, redirect: 'follow' });
    const text = await response.text();
    if (response.status === 404) return 'not_found';
    if (!response.ok) throw new Unavailable(`HTTP ${response.status} from the ${what}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Unavailable(`malformed JSON from the ${what}`);
    }
    const parsed = v.safeParse(schema, json);
    if (!parsed.success) throw new Unavailable(`unexpected JSON from the ${what}`);
    return parsed.output;
  }

  async function ask(query: string): Promise<WikiLookup> {
    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const searchUrl = `${baseUrl}/w/rest.php/v1/search/page?q=${encodeURIComponent(query)}&limit=${SEARCH_LIMIT}`;
      const search = await getJson(searchUrl, searchResponseSchema, 'search', signal);
      const best = search === 'not_found' ? undefined : search.pages[0];
      if (!best) return { kind: 'no_results', query };

      const summaryUrl = `${baseUrl}/api/rest_v1/page/summary/${titlePath(best.title)}`;
      const summary = await getJson(summaryUrl, summaryResponseSchema, 'summary', signal);
      if (summary === 'not_found') return { kind: 'no_results', query };

      const url = summary.content_urls?.desktop.page ?? `${baseUrl}/wiki/${titlePath(summary.title)}`;
      const extract = summary.extract?.trim() ?? '';
      if (summary.type === 'disambiguation') {
        return { kind: 'disambiguation', title: summary.title, url, ...(extract ? { extract } : {}) };
      }
      const description = summary.description?.trim();
      return { kind: 'found', title: summary.title, url, extract, ...(description ? { description } : {}) };
    } catch (error) {
      return { kind: 'unavailable', reason: unavailableReason(error, options.timeoutMs) };
    }
  }

  return {
    async lookup(rawQuery) {
      const query = tidyQuery(rawQuery);
      if (query === '') return { kind: 'no_results', query };
      const key = cacheKey(query);
      const cached = await readCache(options.cache, key);
      if (cached) return cached;
      const result = await ask(query);
      if (result.kind !== 'unavailable' && options.cacheSeconds > 0) {
        await writeCache(options.cache, key, result, options.cacheSeconds);
      }
      return result;
    },
  };
}

/** The cache key of a query: case and spacing do not make a different lookup. */
export function cacheKey(query: string): string {
  return `wiki:v1:${tidyQuery(query).toLowerCase()}`;
}

function tidyQuery(query: string): string {
  return query.normalize('NFC').replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY_LENGTH).trim();
}

/** A title as the REST path segment wants it: underscores for spaces, then percent-encoded. */
function titlePath(title: string): string {
  return encodeURIComponent(title.replace(/ /g, '_'));
}

function unavailableReason(error: unknown, timeoutMs: number): string {
  if (error instanceof Unavailable) return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms`;
  }
  if (error instanceof TypeError) {
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const detail = typeof cause?.code === 'string' ? cause.code : cause?.message;
    return typeof detail === 'string' ? `network error: ${detail}` : 'network error';
  }
  return 'unexpected error';
}

/** A cache that fails or holds garbage counts as a miss. */
async function readCache(cache: WikiCache | undefined, key: string): Promise<WikiLookup | null> {
  if (!cache) return null;
  try {
    const raw = await cache.get(key);
    if (raw === null) return null;
    const parsed = v.safeParse(cachedWikiLookupSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

async function writeCache(
  cache: WikiCache | undefined,
  key: string,
  value: WikiLookup,
  ttlSeconds: number,
): Promise<void> {
  if (!cache) return;
  try {
    await cache.set(key, JSON.stringify(value), { ttlSeconds });
  } catch {
    // A cache that cannot be written only costs the next lookup a round trip.
  }
}
