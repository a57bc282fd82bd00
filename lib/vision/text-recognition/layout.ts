import type { EngineBlock, EngineBox, EngineWord, RecognizedLine, RecognizedWord, TextBox } from './types.js';

/** A gap between words wider than this many line heights separates two columns (or a label and its value). */
const COLUMN_GAP = 1.5;
/** Lines of a block that must share a gutter before the block is read as columns. */
const MIN_COLUMN_LINES = 2;
/** Words a line part must average on both sides of a gutter to be prose columns (not "Bread   2.45"). */
const MIN_COLUMN_WORDS = 2;

export interface LayoutOptions {
  /** Words under this confidence (0..100, tesseract's scale) are dropped. */
  minConfidence: number;
  /** Scale from the original image to the one recognised: boxes are divided by it. */
  scale: number;
}

interface Part {
  words: EngineWord[];
  box: EngineBox;
}

/**
 * The lines of tesseract's result in reading order, keeping only what is likely text: words at or
 * over the confidence floor that hold a letter or digit, in lines with at least one word of three
 * such characters (or four in all) — texture and edges read as "om", "A" or "|" are gone. A block
 * whose lines share a wide gutter, with several words on each side, is read as columns: the left
 * column's lines, then the right's.
 */
export function linesOf(blocks: readonly EngineBlock[], options: LayoutOptions): RecognizedLine[] {
  const lines: RecognizedLine[] = [];
  let blockIndex = 0;
  for (const block of blocks) {
    const rows: Part[][] = [];
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words.filter((word) => keepsWord(word, options.minConfidence));
        if (!isLegible(words)) continue;
        rows.push(partsOf(words));
      }
    }
    if (rows.length === 0) continue;
    const gutter = columnGutter(rows);
    const columns = gutter === undefined ? [rows.map(joinParts)] : splitAt(rows, gutter);
    for (const column of columns) {
      if (column.length === 0) continue;
      for (const part of column) lines.push(lineOf(part, blockIndex, options.scale));
      blockIndex++;
    }
  }
  return lines;
}

function keepsWord(word: EngineWord, minConfidence: number): boolean {
  return word.confidence >= minConfidence && /[\p{L}\p{N}]/u.test(word.text);
}

function isLegible(words: EngineWord[]): boolean {
  const sizes = words.map((word) => (word.text.match(/[\p{L}\p{N}]/gu) ?? []).length);
  return sizes.some((size) => size >= 3) || sizes.reduce((sum, size) => sum + size, 0) >= 4;
}

/** Splits a line's words where the gap between two is wider than COLUMN_GAP line heights. */
function partsOf(words: EngineWord[]): Part[] {
  const height = Math.max(...words.map((word) => word.bbox.y1 - word.bbox.y0), 1);
  const parts: Part[] = [];
  for (const word of words) {
    const last = parts.at(-1);
    if (last && word.bbox.x0 - last.box.x1 <= COLUMN_GAP * height) {
      last.words.push(word);
      last.box = union(last.box, word.bbox);
    } else {
      parts.push({ words: [word], box: { ...word.bbox } });
    }
  }
  return parts;
}

/** The x of a gutter that splits several lines into two parts of prose each, if there is one. */
function columnGutter(rows: Part[][]): number | undefined {
  const split = rows.filter((parts) => parts.length === 2);
  if (split.length < MIN_COLUMN_LINES || split.length * 2 < rows.length) return undefined;
  const left = split.map((parts) => parts[0]!);
  const right = split.map((parts) => parts[1]!);
  const averageWords = (parts: Part[]) =>
    parts.reduce((sum, part) => sum + part.words.length, 0) / parts.length;
  if (averageWords(left) < MIN_COLUMN_WORDS || averageWords(right) < MIN_COLUMN_WORDS) return undefined;
  const leftEdge = Math.max(...left.map((part) => part.box.x1));
  const rightEdge = Math.min(...right.map((part) => part.box.x0));
  return rightEdge > leftEdge ? (leftEdge + rightEdge) / 2 : undefined;
}

function splitAt(rows: Part[][], gutter: number): Part[][] {
  const left: Part[] = [];
  const right: Part[] = [];
  for (const parts of rows) {
    const before = parts.filter((part) => part.box.x1 <= gutter);
    const after = parts.filter((part) => part.box.x1 > gutter);
    if (before.length > 0) left.push(joinParts(before));
    if (after.length > 0) right.push(joinParts(after));
  }
  return [left, right];
}

function joinParts(parts: Part[]): Part {
  return {
    words: parts.flatMap((part) => part.words),
    box: parts.map((part) => part.box).reduce(union),
  };
}

function lineOf(part: Part, block: number, scale: number): RecognizedLine {
  const words: RecognizedWord[] = part.words.map((word) => ({
    text: word.text,
    confidence: round(word.confidence / 100),
    box: boxOf(word.bbox, scale),
  }));
  const confidence = words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
  return {
    text: words.map((word) => word.text).join(' '),
    confidence: round(confidence),
    box: boxOf(part.box, scale),
    block,
    words,
  };
}

function union(a: EngineBox, b: EngineBox): EngineBox {
  return {
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  };
}

function boxOf(box: EngineBox, scale: number): TextBox {
  const x = Math.round(box.x0 / scale);
  const y = Math.round(box.y0 / scale);
  return { x, y, width: Math.round(box.x1 / scale) - x, height: Math.round(box.y1 / scale) - y };
}

const round = (value: number) => Math.round(value * 100) / 100;
