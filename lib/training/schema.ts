import * as v from 'valibot';

/** Largest training text per request, in UTF-8 bytes. */
export const MAX_TRAIN_TEXT_BYTES = 1024 * 1024;
/** Body cap of POST /api/train: room for the text with JSON escapes. */
export const TRAIN_BODY_LIMIT_BYTES = 6 * 1024 * 1024;

/** The body of POST /api/train. */
export const trainRequestSchema = v.object(
  {
    text: v.pipe(
      v.string('is required and must be a string'),
      v.check((text) => text.trim().length > 0, 'must contain some text, not only whitespace'),
    ),
  },
  'the body must be a JSON object with a text field',
);

export type TrainRequest = v.InferOutput<typeof trainRequestSchema>;
