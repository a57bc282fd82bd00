export { groundedAnswer, groundingPrompt, sourceLine, sourceOf } from './answer.js';
export { cacheKey, createWikipediaClient, defaultWikiUserAgent } from './client.js';
export { searchQueryFrom } from './search-query.js';
export { relevantSentences, splitSentences } from './sentences.js';
export type {
  GroundingPrompt,
  WikiCache,
  WikiDisambiguation,
  WikiFound,
  WikiLookup,
  WikiNoResults,
  WikipediaClient,
  WikipediaClientOptions,
  WikiSource,
  WikiUnavailable,
} from './types.js';
