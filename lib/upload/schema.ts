import * as v from 'valibot';

const imageMimeType = v.picklist([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/heic',
]);

const integer = v.pipe(v.number(), v.integer());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const positive = v.pipe(v.number(), v.integer(), v.minValue(1));
const confidence = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
const sha256Hex = v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/));

/** An uploaded image's id: the SHA-256 (hex) of its bytes. */
export const imageIdSchema = sha256Hex;

/** A box in pixels of the upright image. */
const box = v.strictObject({ x: integer, y: integer, width: count, height: count });

/** One line of text read in an image, with its box and words (boxes in pixels of the upright image). */
const textLine = v.strictObject({
  text: v.string(),
  confidence,
  box,
  /** The column or paragraph block the line belongs to, in reading order. */
  block: count,
  words: v.array(v.strictObject({ text: v.string(), confidence, box })),
});

/** What training the image's text did (form field `train=true`). */
const training = v.variant('status', [
  v.strictObject({
    status: v.literal('trained'),
    /** The name the text was trained under: `image:<id>`. */
    source: v.pipe(v.string(), v.regex(/^image:[0-9a-f]{64}$/)),
    chunk: positive,
    tokens: count,
    vocabSize: count,
  }),
  v.strictObject({ status: v.literal('no_text') }),
]);

/** The 200 body of POST /api/upload. */
export const uploadedImageSchema = v.strictObject({
  /** SHA-256 (hex) of the stored bytes: the same image always gets the same id. */
  id: sha256Hex,
  /** GET this to have the stored image back. */
  url: v.pipe(v.string(), v.url()),
  /** Type of the stored image (and of `url`), decided from its bytes. */
  mimeType: imageMimeType,
  /** Length of the stored image in bytes. */
  bytes: positive,
  width: positive,
  height: positive,
  /** The lines of text read in the image, in reading order; empty when it has none. */
  text: v.array(v.string()),
  /** Mean confidence of the words read, 0..1; 0 without text. */
  textConfidence: confidence,
  /** `read`, `none` (no legible text) or `timed_out` (reading took longer than OCR_TIMEOUT_MS). */
  textStatus: v.picklist(['read', 'none', 'timed_out']),
  textLines: v.array(textLine),
  /** Present when the upload asked for `train=true`. */
  training: v.optional(training),
  /** The stored image, or a downscaled JPEG of it when `base64Downscaled` (see `base64MimeType`). */
  base64: v.string(),
  base64MimeType: imageMimeType,
  base64Downscaled: v.boolean(),
  /** True when EXIF/XMP/IPTC metadata was found and removed (by re-encoding). */
  metadataStripped: v.boolean(),
  /** The image is kept this long after its last upload. */
  expiresInSeconds: positive,
});

export type UploadedImage = v.InferOutput<typeof uploadedImageSchema>;

/** The words of the form field `train` that ask to train the image's text, and those that do not. */
export const TRAIN_FIELD_YES = ['true', '1', 'yes'] as const;
export const TRAIN_FIELD_NO = ['false', '0', 'no'] as const;

/**
 * The fields POST /api/upload reads beside its `file` part. `train` is read trimmed and in any
 * case; the document states the words themselves.
 */
export const uploadFieldsSchema = v.object({
  train: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist([...TRAIN_FIELD_YES, ...TRAIN_FIELD_NO, ''], 'must be true or false'),
    ),
  ),
});
