import { json, type MethodHandler } from '../http/index.js';
import { answersQuestion } from '../pipeline/index.js';
import type { Services } from '../services/index.js';
import type { SuggestionsResponse } from './schema.js';
import { suggestedQuestions } from './suggest.js';

/** Browsers and CDNs may keep the list a few minutes: it changes only when the documents do. */
export const SUGGESTIONS_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=600';

/** GET /api/suggestions (public): `{ questions }`, up to five questions the documents answer. */
export function suggestionsHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    async GET() {
      const { model } = services();
      const knowledge = await model.knowledge().catch(() => model.cachedKnowledge());
      const questions = suggestedQuestions(knowledge, answersQuestion(knowledge));
      return json({ questions } satisfies SuggestionsResponse, 200, {
        'Cache-Control': SUGGESTIONS_CACHE_CONTROL,
      });
    },
  };
}
