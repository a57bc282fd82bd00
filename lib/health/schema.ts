import * as v from 'valibot';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const version = v.pipe(v.string(), v.regex(/^\d+\.\d+\.\d+$/));

/** The body of a 200 from GET /api/health. */
export const healthOkSchema = v.strictObject({
  status: v.literal('ok'),
  vocabSize: count,
  store: v.picklist(['embedded', 'upstash']),
  version,
  uptimeSeconds: count,
  /** Whether an external model is configured. */
  externalModel: v.boolean(),
  /**
   * The starter guide (the document `starter-guide`): `present` until the first document of the
   * owner's own is trained, then `left`; a reset-model brings it back. `off` with STARTER_TEXT=off.
   */
  starterGuide: v.optional(v.picklist(['present', 'left', 'off'])),
  /** Only for the owner: how to teach the service. */
  howToTeach: v.optional(v.string()),
});

/** The body of a 503 from GET /api/health: the store cannot be reached, or there is none (`none`). */
export const healthDegradedSchema = v.strictObject({
  status: v.literal('degraded'),
  vocabSize: v.null(),
  store: v.picklist(['embedded', 'upstash', 'none']),
  version,
  uptimeSeconds: count,
  externalModel: v.boolean(),
  error: v.string(),
  code: v.picklist(['store_unavailable', 'store_unconfigured']),
});

export type HealthOk = v.InferOutput<typeof healthOkSchema>;
export type HealthDegraded = v.InferOutput<typeof healthDegradedSchema>;
/** What GET /api/health reports. */
export type HealthReport = HealthOk | HealthDegraded;
