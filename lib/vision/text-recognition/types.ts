/** A rectangle in the pixels of the upright image (EXIF orientation applied). */
export interface TextBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One recognised word. */
export interface RecognizedWord {
  text: string;
  /** The recognizer's confidence, 0..1. */
  confidence: number;
  box: TextBox;
}

/** One line of recognised text, in reading order. */
export interface RecognizedLine {
  text: string;
  /** Mean confidence of its words, 0..1. */
  confidence: number;
  box: TextBox;
  /** Index of the block (a column, a paragraph apart) the line belongs to, in reading order. */
  block: number;
  words: RecognizedWord[];
}

/**
 * What text recognition found in an image. `read`: text was found (`lines` non-empty); `none`:
 * nothing legible enough; `timed_out`: the image took longer than the time limit and was left.
 */
export interface RecognizedText {
  status: 'read' | 'none' | 'timed_out';
  lines: RecognizedLine[];
  /** Mean confidence of the kept words, 0..1; 0 when none were kept. */
  confidence: number;
  /** Milliseconds the recognition took (preparing the image included, waiting in the queue not). */
  ms: number;
}

/** The parts of tesseract's result the layout reads (tesseract.js `Page.blocks`). */
export interface EngineBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface EngineWord {
  text: string;
  confidence: number;
  bbox: EngineBox;
}
export interface EngineLine {
  words: EngineWord[];
  bbox: EngineBox;
}
export interface EngineBlock {
  paragraphs: { lines: EngineLine[] }[];
  bbox: EngineBox;
}
