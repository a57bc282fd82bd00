import * as v from 'valibot';

const positive = v.pipe(v.number(), v.integer(), v.minValue(1));

/** Where a source passage is: a chunk and line of the trained text, an article, or a line of an image's text. */
export const sourceRefSchema = v.union([
  v.strictObject({ chunk: positive, line: positive }),
  v.strictObject({ title: v.string(), url: v.string() }),
  v.strictObject({ image: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)), line: positive }),
]);

/** A source as every chat response lists it: the passage, where it is, and its citation. */
export const sourceSchema = v.strictObject({
  text: v.string(),
  score: v.number(),
  ref: sourceRefSchema,
  section: v.optional(v.string()),
  file: v.optional(v.string()),
  page: v.optional(positive),
  title: v.optional(v.string()),
  url: v.optional(v.string()),
  documentId: v.optional(v.string()),
  /** The document's format as its file name tells it (the kind of anchor its link has). */
  format: v.optional(v.picklist(['markdown', 'html', 'pdf'])),
});
