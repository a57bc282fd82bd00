import * as v from 'valibot';
import type { Store } from '../store/types.js';

/** An article was found: its summary extract is what an answer may be grounded in. */
export const wikiFoundSchema = v.object({
  kind: v.literal('found'),
  title: v.string(),
  /** The article's desktop URL (`content_urls.desktop.page` of the summary). */
  url: v.string(),
  extract: v.string(),
  description: v.optional(v.string()),
});

/** The best hit was a disambiguation page: the query names several things. */
export const wikiDisambiguationSchema = v.object({
  kind: v.literal('disambiguation'),
  title: v.string(),
  url: v.string(),
  extract: v.optional(v.string()),
});

/** The search came back empty (or its best hit has no page any more). */
export const wikiNoResultsSchema = v.object({
  kind: v.literal('no_results'),
  query: v.string(),
});

/** The encyclopedia could not be asked: time-out, network error, 5xx or a malformed body. */
export const wikiUnavailableSchema = v.object({
  kind: v.literal('unavailable'),
  /** Short, human-readable ("timed out after 4000 ms", "HTTP 503"). */
  reason: v.string(),
});

/** The outcomes worth remembering; `unavailable` is never cached. */
export const cachedWikiLookupSchema = v.variant('kind', [
  wikiFoundSchema,
  wikiDisambiguationSchema,
  wikiNoResultsSchema,
]);

export type WikiFound = v.InferOutput<typeof wikiFoundSchema>;
export type WikiDisambiguation = v.InferOutput<typeof wikiDisambiguationSchema>;
export type WikiNoResults = v.InferOutput<typeof wikiNoResultsSchema>;
export type WikiUnavailable = v.InferOutput<typeof wikiUnavailableSchema>;

/** What one encyclopedia lookup gives; switch on `kind`. */
export type WikiLookup = WikiFound | WikiDisambiguation | WikiNoResults | WikiUnavailable;

/** The part of the store the client caches in. */
export type WikiCache = Pick<Store, 'get' | 'set'>;

/** Options of `createWikipediaClient`. */
export interface WikipediaClientOptions {
  /** Origin of the wiki, e.g. `https://en.wikipedia.org` (a trailing slash is ignored). */
  baseUrl: string;
  /** Budget for the whole lookup (search and summary together), in milliseconds. */
  timeoutMs: number;
  /** Sent on every request, as Wikimedia's User-Agent policy asks. */
  userAgent: string;
  cache?: WikiCache;
  /** How long found / disambiguation / no-results outcomes stay cached; 0 turns caching off. */
  cacheSeconds: number;
  fetch?: typeof globalThis.fetch;
}

/** Looks things up in the encyclopedia. */
export interface WikipediaClient {
  /** Searches, then summarises the best hit. Never throws for encyclopedia trouble. */
  lookup(query: string): Promise<WikiLookup>;
}

/** The system instructions and user prompt that ground an external model in one extract. */
export interface GroundingPrompt {
  system: string;
  prompt: string;
}

/** The article an answer cites. */
export interface WikiSource {
  title: string;
  url: string;
}
