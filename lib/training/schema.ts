import * as v from 'valibot';

/** Largest training text per request, in UTF-8 bytes. */
export const MAX_TRAIN_TEXT_BYTES = 1024 * 1024;
/** Body cap of POST /api/train: room for the text with JSON escapes. */
export const TRAIN_BODY_LIMIT_BYTES = 6 * 1024 * 1024;
/** Largest file a multipart train may carry (a PDF is larger than its text; Vercel caps bodies at 4.5 MB). */
export const MAX_TRAIN_FILE_BYTES = 4 * 1024 * 1024;

/** The formats a JSON train may name (a PDF comes as a file). */
export const TRAIN_FORMATS = ['text', 'markdown', 'html', 'dialogue'] as const;

const nameSchema = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(200, 'must be at most 200 characters'),
);

/** The body of POST /api/train. */
export const trainRequestSchema = v.object(
  {
    text: v.pipe(
      v.string('is required and must be a string'),
      v.check((text) => text.trim().length > 0, 'must contain some text, not only whitespace'),
    ),
    format: v.optional(v.picklist(TRAIN_FORMATS, `must be one of ${TRAIN_FORMATS.join(', ')}`), 'text'),
    name: v.optional(nameSchema),
  },
  'the body must be a JSON object with a text field',
);

export type TrainRequest = v.InferOutput<typeof trainRequestSchema>;

/** The fields a multipart train may send beside its file. */
export const trainFileFieldsSchema = v.object({
  name: v.optional(nameSchema),
  format: v.optional(v.picklist(TRAIN_FORMATS, `must be one of ${TRAIN_FORMATS.join(', ')}`)),
});
