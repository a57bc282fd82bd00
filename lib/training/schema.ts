import * as v from 'valibot';

/** Largest training text per request, in UTF-8 bytes. */
export const MAX_TRAIN_TEXT_BYTES = 1024 * 1024;
/** Body cap of POST /api/train: room for the text with JSON escapes. */
export const TRAIN_BODY_LIMIT_BYTES = 6 * 1024 * 1024;
/** Largest file a multipart train may carry (a PDF is larger than its text; Vercel caps bodies at 4.5 MB). */
export const MAX_TRAIN_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The formats a JSON train may name; `vimhelp` is Vim's help format. A PDF comes as a file, or,
 * where its text is larger than one request takes, as that text in parts with `pdf`: the text as
 * the PDF reader lays it out (pages apart by a form feed), which the CLI reads on its side.
 */
export const TRAIN_FORMATS = ['text', 'markdown', 'html', 'pdf', 'dialogue', 'vimhelp'] as const;

const nameSchema = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(200, 'must be at most 200 characters'),
);

/** A document's identity: 1-200 printable characters (no control characters), not only spaces. */
export const documentIdSchema = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(200, 'must be at most 200 characters'),
  v.check((id) => !/\p{Cc}/u.test(id), 'must not contain control characters (tabs, newlines, ...)'),
  v.check((id) => id.trim() !== '', 'must not be only spaces'),
);

/** Where a citation of the document links: an http or https URL. */
export const documentUrlSchema = v.pipe(
  v.string('must be a string'),
  v.maxLength(2000, 'must be at most 2000 characters'),
  v.check((url) => {
    try {
      const parsed = new URL(url);
      return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an http or https URL'),
);

/** SHA-256 of the bytes sent (for parts: of the whole file), hex. */
export const sha256Schema = v.pipe(
  v.string('must be a string'),
  v.regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits (SHA-256)'),
  v.toLowerCase(),
);

/** Most parts one document may be sent in (1 MB each). */
export const MAX_PARTS = 10_000;

const partNumberSchema = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(MAX_PARTS, `must be at most ${MAX_PARTS}`),
);

/** The `Idempotency-Key` header of POST /api/train: 1-128 visible ASCII characters (a UUID is a good choice). */
export const idempotencyKeySchema = v.pipe(v.string(), v.regex(/^[\x21-\x7e]{1,128}$/));

/** The body of POST /api/train. */
export const trainRequestSchema = v.object(
  {
    text: v.pipe(
      v.string('is required and must be a string'),
      v.check((text) => text.trim().length > 0, 'must contain some text, not only whitespace'),
    ),
    format: v.optional(v.picklist(TRAIN_FORMATS, `must be one of ${TRAIN_FORMATS.join(', ')}`), 'text'),
    name: v.optional(nameSchema),
    documentId: v.optional(documentIdSchema),
    url: v.optional(documentUrlSchema),
    sha256: v.optional(sha256Schema),
    part: v.optional(partNumberSchema),
    parts: v.optional(partNumberSchema),
  },
  'the body must be a JSON object with a text field',
);

export type TrainRequest = v.InferOutput<typeof trainRequestSchema>;

/** The fields a multipart train may send beside its file. */
export const trainFileFieldsSchema = v.object({
  name: v.optional(nameSchema),
  format: v.optional(v.picklist(TRAIN_FORMATS, `must be one of ${TRAIN_FORMATS.join(', ')}`)),
  documentId: v.optional(documentIdSchema),
  url: v.optional(documentUrlSchema),
  sha256: v.optional(sha256Schema),
});

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The body of a 200 from POST /api/train. */
export const trainResponseSchema = v.strictObject({
  ok: v.literal(true),
  /** Tokens learnt from this text (0 when unchanged). */
  tokens: count,
  vocabSize: count,
  /** The document the text belongs to. */
  documentId: v.string(),
  /** A new document, a new version of one (the old text forgotten), or the same content again. */
  status: v.picklist(['trained', 'replaced', 'unchanged']),
});

export type TrainResponse = v.InferOutput<typeof trainResponseSchema>;

/** The body of a 202 from POST /api/train: a part was kept; the document goes live with its last part. */
export const trainPendingSchema = v.strictObject({
  documentId: v.string(),
  status: v.literal('pending'),
  part: v.pipe(v.number(), v.integer(), v.minValue(1)),
  parts: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export type TrainPending = v.InferOutput<typeof trainPendingSchema>;

/** The body of a 200 from GET /api/admin/documents: a page of the document table, by id. */
export const documentListSchema = v.strictObject({
  documents: v.array(
    v.strictObject({
      id: v.string(),
      /** The name citations show. */
      name: v.string(),
      format: v.picklist(['text', 'markdown', 'html', 'pdf', 'dialogue', 'vimhelp']),
      /** Bytes sent (the file as it is, or the text). */
      bytes: count,
      sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
      /** Passages it gives the index. */
      passages: count,
      url: v.optional(v.string()),
      trainedAt: v.pipe(v.string(), v.isoTimestamp()),
    }),
  ),
  /** Pass as cursor for the next page; absent on the last. */
  nextCursor: v.optional(v.string()),
});

export type DocumentList = v.InferOutput<typeof documentListSchema>;
