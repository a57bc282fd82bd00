import * as v from 'valibot';

/** A session's id, as chat takes it and DELETE /api/admin/session names it. */
export const sessionIdSchema = v.pipe(
  v.string('must be a string'),
  v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, "-" or "_"'),
);
