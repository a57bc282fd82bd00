import * as v from 'valibot';

const imageMimeType = v.picklist([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/heic',
]);

const box = v.object({ x: v.number(), y: v.number(), width: v.number(), height: v.number() });

/** One line of text read in an image, with its box and words (boxes in pixels of the upright image). */
const textLine = v.object({
  text: v.string(),
  confidence: v.number(),
  box,
  /** The column or paragraph block the line belongs to, in reading order. */
  block: v.number(),
  words: v.array(v.object({ text: v.string(), confidence: v.number(), box })),
});

/** What training the image's text did (form field `train=true`). */
const training = v.variant('status', [
  v.object({
    status: v.literal('trained'),
    /** The name the text was trained under: `image:<id>`. */
    source: v.string(),
    chunk: v.number(),
    tokens: v.number(),
    vocabSize: v.number(),
  }),
  v.object({ status: v.literal('no_text') }),
]);

/** The 200 body of POST /api/upload. */
export const uploadedImageSchema = v.object({
  /** SHA-256 (hex) of the stored bytes: the same image always gets the same id. */
  id: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  /** GET this to have the stored image back. */
  url: v.string(),
  /** Type of the stored image (and of `url`), decided from its bytes. */
  mimeType: imageMimeType,
  /** Length of the stored image in bytes. */
  bytes: v.number(),
  width: v.number(),
  height: v.number(),
  /** The lines of text read in the image, in reading order; empty when it has none. */
  text: v.array(v.string()),
  /** Mean confidence of the words read, 0..1; 0 without text. */
  textConfidence: v.number(),
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
  expiresInSeconds: v.number(),
});

export type UploadedImage = v.InferOutput<typeof uploadedImageSchema>;
