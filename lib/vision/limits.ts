/** Largest image accepted, by upload or as base64 in a chat message: 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Most pixels decoded for one image, all frames of an animation together (≈ 200 MB as RGBA).
 * A small file can claim huge dimensions (a decompression bomb); this stops it before decoding.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** A byte limit as people say it: "5 MB", "64 KB", "100 bytes". */
export function formatByteLimit(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
