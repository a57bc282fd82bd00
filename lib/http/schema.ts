import * as v from 'valibot';
import { type ErrorCode, errorStatus } from './errors.js';

/** The machine codes that answer with `status`, from the one table in ./errors. */
export function codesWithStatus(status: number): ErrorCode[] {
  return (Object.keys(errorStatus) as ErrorCode[]).filter((code) => errorStatus[code] === status);
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const seconds = v.pipe(v.number(), v.integer(), v.minValue(0));
const codeOf = (codes: readonly ErrorCode[]) => v.picklist(codes as [ErrorCode, ...ErrorCode[]]);

/**
 * Every error body: `{ error, code, ...extra }` as `HttpError.toBody` makes it. Loose, because
 * the extra fields depend on the code; the schemas below name them for each status.
 */
export const errorBodySchema = v.looseObject({
  error: v.pipe(v.string(), v.minLength(1)),
  code: codeOf(Object.keys(errorStatus) as ErrorCode[]),
});

export type ErrorBody = v.InferOutput<typeof errorBodySchema>;

/** A 400: what `validate` throws (the first invalid field and all of them), or a plain bad request. */
export const validationErrorSchema = v.looseObject({
  ...errorBodySchema.entries,
  code: codeOf(codesWithStatus(400)),
  field: v.optional(v.nullable(v.string())),
  fields: v.optional(v.array(v.string())),
});

export type ValidationErrorExtra = Pick<v.InferOutput<typeof validationErrorSchema>, 'field' | 'fields'>;

/** A 413: the body, an image or a document passed a bound. */
export const payloadTooLargeErrorSchema = v.looseObject({
  ...errorBodySchema.entries,
  code: codeOf(codesWithStatus(413)),
  limitBytes: v.optional(count),
  limit: v.optional(v.string()),
  found: v.optional(count),
  max: v.optional(count),
  corpusBytes: v.optional(count),
});

/** A 422: a document that cannot be read within the bounds, or an idempotency conflict. */
export const documentRefusedErrorSchema = v.looseObject({
  ...errorBodySchema.entries,
  code: codeOf(codesWithStatus(422)),
  limit: v.optional(v.string()),
  found: v.optional(count),
  max: v.optional(count),
});

/** A 429 of a session whose allowance is spent. */
export const sessionLimitErrorSchema = v.looseObject({
  ...errorBodySchema.entries,
  code: v.literal('session_limit'),
  limit: v.pipe(v.number(), v.integer(), v.minValue(1)),
  remaining: v.literal(0),
});

/** A 429 of an address that sent too many requests. */
export const rateLimitedErrorSchema = v.looseObject({
  ...errorBodySchema.entries,
  code: v.literal('rate_limited'),
  retryAfter: seconds,
});

/** A 503: the store, the identity provider or a reader cannot serve right now. */
export const serviceUnavailableErrorSchema = v.looseObject({
  ...errorBodySchema.entries,
  code: codeOf(codesWithStatus(503)),
  retryAfter: v.optional(seconds),
});
