/** Largest image accepted, by upload or as base64 in a chat message: 5 MB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Most pixels decoded for one image, all frames of an animation together: a 48 MP phone photo
 * passes. A small file can claim huge dimensions (a decompression bomb); this and
 * `MAX_DECODE_BYTES` stop it from its header, before anything is decoded.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;

/**
 * Most memory the decoding of one image may take, estimated from its header (`decodeBytesPerPixel`).
 * Decoding runs one image at a time (lib/vision/decode-gate), so this bounds what images add to
 * the process's memory.
 */
export const MAX_DECODE_BYTES = 160 * 1024 * 1024;

/** Formats as sharp's metadata names them, with what their header says about how they decode. */
export interface DecodeShape {
  format: string;
  /** Progressive JPEG or interlaced (Adam7) PNG: decoded whole rather than line by line. */
  progressive: boolean;
  /** Carries metadata to strip, so it is decoded and re-encoded in full (lib/vision/strip-metadata). */
  reencode: boolean;
}

/**
 * Bytes of memory per pixel the heaviest work on an image takes (the decoding check, stripping
 * metadata, the chat analysis), measured with sharp 0.35 and rounded up: baseline JPEG and plain
 * PNG are decoded and re-encoded line by line; progressive JPEG keeps every coefficient and
 * interlaced PNG every pass; WebP is checked at a reduced scale but re-encoded whole; GIF and
 * AVIF/HEIF decode whole frames (AVIF with several working copies).
 */
export function decodeBytesPerPixel({ format, progressive, reencode }: DecodeShape): number {
  switch (format) {
    case 'jpeg':
      return progressive ? 7 : 2;
    case 'png':
      return progressive ? 5 : 2;
    case 'webp':
      return reencode ? 13 : 2;
    case 'gif':
      return 10;
    default:
      return 26;
  }
}

/** Most pixels of one image of that shape: the pixel cap, or less where decoding costs more. */
export function maxPixelsFor(shape: DecodeShape): number {
  return Math.min(MAX_IMAGE_PIXELS, Math.floor(MAX_DECODE_BYTES / decodeBytesPerPixel(shape)));
}

/** A byte limit as people say it: "5 MB", "64 KB", "100 bytes". */
export function formatByteLimit(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
