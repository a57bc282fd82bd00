import * as v from 'valibot';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const previewNamespace = v.pipe(v.string(), v.regex(/^preview:[a-z0-9][a-z0-9._-]*$/));

/** The body of a 200 from GET /api/admin/stats. */
export const adminStatsSchema = v.strictObject({
  sessions: v.strictObject({
    /** Sessions whose allowance window is still open. */
    active: count,
    /** Sessions ever started. */
    total: count,
  }),
  /** Variant A messages answered. */
  messages: count,
  vocabSize: count,
  corpus: v.strictObject({
    /** Texts trained on. */
    chunks: count,
    /** Texts covered by the stored snapshot of the counts. */
    snapshotChunks: count,
    tokens: count,
    characters: count,
  }),
  store: v.picklist(['embedded', 'upstash']),
});

export type AdminStats = v.InferOutput<typeof adminStatsSchema>;

/** The body of a 200 from POST /api/admin/reset-model. */
export const resetModelResultSchema = v.strictObject({ ok: v.literal(true), vocabSize: v.literal(0) });

export type ResetModelResult = v.InferOutput<typeof resetModelResultSchema>;

/** The body of a 200 from DELETE /api/admin/session: the session named, and whose default it was. */
export const deleteSessionResultSchema = v.strictObject({
  ok: v.literal(true),
  sessionId: v.string(),
  /** The client whose default session was deleted. */
  address: v.optional(v.string()),
  /** The user whose default session was deleted. */
  user: v.optional(v.string()),
});

export type DeleteSessionResult = v.InferOutput<typeof deleteSessionResultSchema>;

/** The body of a 200 from GET /api/admin/previews. */
export const previewListSchema = v.strictObject({
  /** This deployment's STORE_NAMESPACE: empty for production, preview:<branch> on a preview. */
  namespace: v.string(),
  /** PREVIEW_CORPUS: whether this deployment's model reads production's corpus under its own. */
  corpus: v.picklist(['production', 'own']),
  previews: v.array(
    v.strictObject({
      namespace: previewNamespace,
      keys: count,
      /** Approximate: key names and contents. */
      bytes: count,
    }),
  ),
});

export type PreviewList = v.InferOutput<typeof previewListSchema>;

/** The body of a 200 from DELETE /api/admin/previews. */
export const deletePreviewResultSchema = v.strictObject({
  ok: v.literal(true),
  namespace: previewNamespace,
  deletedKeys: count,
});

export type DeletePreviewResult = v.InferOutput<typeof deletePreviewResultSchema>;

/** The body of a 200 from DELETE /api/admin/documents. */
export const deleteDocumentResultSchema = v.strictObject({
  /** The id of the document forgotten. */
  deleted: v.string(),
});

export type DeleteDocumentResult = v.InferOutput<typeof deleteDocumentResultSchema>;
