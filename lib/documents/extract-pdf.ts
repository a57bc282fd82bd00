import { DEFAULT_READ_LIMITS, type ReadLimits } from './bounded/limits.js';
import { placedTextOf } from './bounded/pdf-pages.js';
import { checkInflatedSize } from './bounded/pdf-streams.js';
import { ReadRefused } from './bounded/refusal.js';
import { PDF_HEADING_UNDERLINES } from './readers/text/lines.js';

/** A run of text on a page, as the extractor places it. */
export interface PlacedText {
  str: string;
  x: number;
  y: number;
  fontSize: number;
  hasEOL?: boolean;
}

/** One visual line of a page. */
interface PageLine {
  text: string;
  x: number;
  y: number;
  fontSize: number;
}

/**
 * The text of a PDF, pages separated by a form feed on a line of its own, laid out for the text
 * reader: a blank line where the vertical gap says a paragraph ends, headings (larger type) on
 * lines of their own between blank lines, indentation kept from the x position. Bounded: the
 * compressed streams are counted before pdf.js reads them, the pages are counted before any is
 * extracted, and extraction stops past the text limit. Throws ReadRefused with the bound hit, or
 * `unreadable` / `no_text` (damaged or encrypted file, scanned pages). Runs inside the document
 * read worker (`readBounded`), never on a request's thread.
 */
export async function extractPdfText(
  bytes: Uint8Array,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<string> {
  await checkInflatedSize(bytes, limits.maxInflatedBytes);
  const pages = await placedTextOf(bytes, limits);
  const lines = pages.map(linesOf);
  const bodySize = commonFontSize(lines.flat());
  const headingSizes = [
    ...new Set(
      lines
        .flat()
        .filter((line) => isHeading(line, bodySize))
        .map(sizeOf),
    ),
  ].sort((a, b) => b - a);
  const text = lines.map((page) => layOut(page, bodySize, headingSizes)).join('\n\f\n');
  if (text.replace(/\f/g, '').trim() === '') throw new ReadRefused({ limit: 'no_text' });
  return text.replace(/^\n+/, '');
}

function linesOf(items: readonly PlacedText[]): PageLine[] {
  const lines: PageLine[] = [];
  let current: PageLine | undefined;
  for (const item of items) {
    const sameLine = current && Math.abs(current.y - item.y) <= Math.max(2, item.fontSize * 0.3);
    if (!current || !sameLine) {
      if (current && current.text.trim() !== '') lines.push(current);
      current = { text: '', x: item.x, y: item.y, fontSize: item.fontSize };
    }
    current.text += item.str;
    if (item.str.trim() !== '') current.fontSize = Math.max(current.fontSize, item.fontSize);
    if (item.hasEOL) {
      if (current.text.trim() !== '') lines.push(current);
      current = undefined;
    }
  }
  if (current && current.text.trim() !== '') lines.push(current);
  return lines;
}

function sizeOf(line: PageLine): number {
  return Math.round(line.fontSize * 2) / 2;
}

/** Set larger than the body, and short: a heading. */
function isHeading(line: PageLine, bodySize: number): boolean {
  const text = line.text.trim();
  return sizeOf(line) >= bodySize * 1.15 && text.split(/\s+/).length <= 15 && !/[.,;:]$/.test(text);
}

/** The font size most of the text is set in. */
function commonFontSize(lines: readonly PageLine[]): number {
  const characters = new Map<number, number>();
  for (const line of lines) {
    const size = sizeOf(line);
    characters.set(size, (characters.get(size) ?? 0) + line.text.length);
  }
  let best = 0;
  let bestCount = -1;
  for (const [size, count] of characters) {
    if (count > bestCount) [best, bestCount] = [size, count];
  }
  return best || 12;
}

function layOut(lines: readonly PageLine[], bodySize: number, headingSizes: readonly number[]): string {
  if (lines.length === 0) return '';
  const left = Math.min(...lines.map((line) => line.x));
  const gaps = lines
    .slice(1)
    .map((line, index) => lines[index].y - line.y)
    .filter((gap) => gap > 0);
  const lineGap = median(gaps) ?? bodySize * 1.2;
  const out: string[] = [];
  lines.forEach((line, index) => {
    const text = line.text.replace(/\s+$/, '');
    const gap = index > 0 ? lines[index - 1].y - line.y : 0;
    if (isHeading(line, bodySize)) {
      const rank = Math.min(headingSizes.indexOf(sizeOf(line)), PDF_HEADING_UNDERLINES.length - 1);
      const title = text.trim();
      out.push('', title, PDF_HEADING_UNDERLINES[rank].repeat(Math.max(3, title.length)), '');
      return;
    }
    if (index > 0 && (gap > lineGap * 1.4 || gap < 0)) out.push('');
    const indent = Math.round((line.x - left) / (bodySize * 0.5));
    out.push(`${indent >= 2 ? ' '.repeat(Math.min(indent, 40)) : ''}${text.trimStart()}`);
  });
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
