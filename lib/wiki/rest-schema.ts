import * as v from 'valibot';

/** One hit of `GET /w/rest.php/v1/search/page`; fields we do not use are dropped. */
const searchHitSchema = v.object({
  key: v.string(),
  title: v.pipe(v.string(), v.minLength(1)),
  description: v.nullish(v.string()),
});

/** Body of `GET /w/rest.php/v1/search/page?q=&limit=`. */
export const searchResponseSchema = v.object({
  pages: v.array(searchHitSchema),
});

/** Body of `GET /api/rest_v1/page/summary/<title>` (the parts we use). */
export const summaryResponseSchema = v.object({
  /** `standard`, `disambiguation`, `mainpage` or `no-extract`. */
  type: v.string(),
  title: v.pipe(v.string(), v.minLength(1)),
  description: v.nullish(v.string()),
  extract: v.nullish(v.string()),
  content_urls: v.optional(
    v.object({
      desktop: v.object({ page: v.string() }),
    }),
  ),
});

export type SearchResponse = v.InferOutput<typeof searchResponseSchema>;
export type SummaryResponse = v.InferOutput<typeof summaryResponseSchema>;
