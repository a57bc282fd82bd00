import type { RecognizedLine, RecognizedText } from './text-recognition/types.js';

/** The image types the service accepts, decided from the bytes. */
export type ImageMimeType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp'
  | 'image/avif'
  | 'image/heic';

/** What `inspectImage` learns while checking that an image decodes. */
export interface InspectedImage {
  mimeType: ImageMimeType;
  /** Width and height as displayed, after the EXIF orientation is applied. */
  width: number;
  height: number;
  /** Frames of an animated GIF or WebP; 1 for a still image. */
  pages: number;
  hasAlpha: boolean;
  /** True when some pixel has alpha below 255. */
  transparent: boolean;
}

export type Orientation = 'landscape' | 'portrait' | 'square';

export type BrightnessWord = 'dark' | 'dim' | 'balanced' | 'bright';

export const colourNames = [
  'black',
  'dark grey',
  'grey',
  'light grey',
  'white',
  'red',
  'maroon',
  'brown',
  'orange',
  'beige',
  'yellow',
  'olive',
  'lime',
  'green',
  'teal',
  'cyan',
  'sky blue',
  'blue',
  'navy',
  'purple',
  'magenta',
  'pink',
] as const;

export type ColourName = (typeof colourNames)[number];

export interface DominantColour {
  name: ColourName;
  /** Share of the visible (mostly opaque) pixels, 0..1. */
  share: number;
}

/** The local vision analysis of one image. */
export interface ImageAnalysis {
  /** The lines of text recognised in the image, in reading order; empty when none. */
  text: string[];
  /** Mean confidence of the recognised words, 0..1; 0 without text. */
  textConfidence: number;
  /** `read`, `none` (no legible text), `timed_out` (reading took too long) or `skipped` (not asked). */
  textStatus: RecognizedText['status'] | 'skipped';
  /** The recognised lines with their boxes and words (boxes in pixels of the upright image). */
  textLines: RecognizedLine[];
  /** Short format name: png, jpeg, gif, webp, avif, heic. */
  format: string;
  mimeType: ImageMimeType;
  width: number;
  height: number;
  orientation: Orientation;
  megapixels: number;
  hasAlpha: boolean;
  transparent: boolean;
  brightness: { value: number; word: BrightnessWord };
  /** Largest share first; colours under 5% are left out. Empty when nothing is visible. */
  dominantColours: DominantColour[];
  animated: boolean;
  pages: number;
}

/** An image with its metadata removed, and whether that took a re-encode. */
export interface StrippedImage {
  bytes: Uint8Array;
  mimeType: ImageMimeType;
  reencoded: boolean;
}
