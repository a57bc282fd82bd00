import * as v from 'valibot';
import { MAX_SUGGESTIONS } from './suggest.js';

/** The body of a 200 from GET /api/suggestions. */
export const suggestionsResponseSchema = v.strictObject({
  questions: v.pipe(v.array(v.string()), v.maxLength(MAX_SUGGESTIONS)),
});

export type SuggestionsResponse = v.InferOutput<typeof suggestionsResponseSchema>;
