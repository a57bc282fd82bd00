export { groundedAnswer, groundingPrompt, sourceLine, sourceOf } from './answer';
export { cacheKey, createWikipediaClient, defaultWikiUserAgent } from './client';
export { searchQueryFrom } from './search-query';
export { relevantSentences, splitSentences } from './sentences';
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
} from './types';
