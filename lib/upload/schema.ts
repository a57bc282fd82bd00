import * as v from 'valibot';

const imageMimeType = v.picklist([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/heic',
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
