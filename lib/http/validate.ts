import * as v from 'valibot';
import { HttpError } from './errors.js';
import type { ValidationErrorExtra } from './schema.js';

/**
 * Validates input against a valibot schema; a failure is a 400 naming the field, e.g.
 * `temperature: must be between 0 and 1`.
 */
export function validate<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  const fields = result.issues.map((item) => v.getDotPath(item) ?? '(body)');
  const message = path ? `${path}: ${issue.message}` : issue.message;
  const extra: ValidationErrorExtra = { field: path ?? null, fields: [...new Set(fields)] };
  throw new HttpError('validation_failed', message, extra);
}
