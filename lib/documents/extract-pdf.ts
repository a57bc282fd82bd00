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
  /** Advance width of the run, in the page's units (0 when the extractor does not say). */
  width?: number;
  hasEOL?: boolean;
}

/** One visual line of a page. */
interface PageLine {
  text: string;
  x: number;
  y: number;
  fontSize: number;
  /** Where a column starts after a wide gap: the index in `text` and the page x it is drawn at. */
  columns: { at: number; x: number }[];
  /** Page x where the ink of the last run ends (undefined when the extractor gave no width). */
  inkEnd?: number;
}

/**
 * A gap between two runs of a line wider than this share of the type size is a column gap (a term
 * and its description, table cells), not a space between words: a space is about a third of it,
 * and justified text stretches it to at most twice that.
 */
const COLUMN_GAP = 0.9;
/** A running header or footer repeats at the top or the bottom of at least this many pages. */
const RUNNING_LINE_PAGES = 3;
/** Page x within this distance is the same column (rounding of the extractor's positions). */
const SAME_X = 1.5;

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
  const placed = withoutContentsPages(pages.map(linesOf));
  // The body's size, worked out once: the few running lines left out do not change it.
  const bodySize = commonFontSize(placed.flat());
  const lines = withoutRunningLines(placed, bodySize);
  const headingSizes = [
    ...new Set(
      lines
        .flat()
        .filter((line) => isHeading(line, bodySize))
        .map(sizeOf),
    ),
  ].sort((a, b) => b - a);
  // The line spacing of the whole document: a page with a few lines says little about it.
  const gaps = lines.flatMap((page) =>
    page
      .slice(1)
      .map((line, index) => page[index].y - line.y)
      .filter((gap) => gap > 0),
  );
  const lineGap = median(gaps) ?? bodySize * 1.2;
  // Left and right pages may have margins of their own; a side with few lines is measured with
  // the other.
  const everyMargin = commonMargin(lines.flat());
  const margins = [0, 1].map((parity) => {
    const side = lines.filter((_, index) => index % 2 === parity).flat();
    return side.length >= SIDE_MARGIN_LINES ? commonMargin(side) : everyMargin;
  });
  let text = '';
  lines.forEach((page, index) => {
    const laid = layOut(page, bodySize, headingSizes, lineGap, margins[index % 2]);
    if (index > 0) {
      // A sentence running over the page break goes on without a blank line, so the reader
      // keeps it (and the term entry it belongs to) whole; a page that ends a sentence, or
      // starts with a heading, is a break as before.
      const last = lines[index - 1].at(-1);
      const ends = !last || /[.!?:]["'”’)]?$/.test(last.text.trim()) || laid.startsWith('\n');
      text += ends ? '\n\f\n' : '\n\f';
    }
    text += laid;
  });
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
      current = { text: '', x: item.x, y: item.y, fontSize: item.fontSize, columns: [] };
    }
    const ink = item.str.trim() !== '';
    if (ink && current.text.trim() !== '' && current.inkEnd !== undefined) {
      if (item.x - current.inkEnd > item.fontSize * COLUMN_GAP) {
        current.text = current.text.replace(/\s+$/, '');
        current.columns.push({ at: current.text.length, x: item.x });
      }
    }
    current.text += item.str;
    if (ink) {
      current.fontSize = Math.max(current.fontSize, item.fontSize);
      current.inkEnd = item.width ? item.x + item.width : undefined;
    }
    if (item.hasEOL) {
      if (current.text.trim() !== '') lines.push(current);
      current = undefined;
    }
  }
  if (current && current.text.trim() !== '') lines.push(current);
  return lines;
}

/**
 * Pages without their running headers and footers ("Chapter 4: Shell Builtin Commands 49", a
 * page number alone): a first or last line of a page that, its numbers aside, is the first or
 * last line of several pages (set no larger than the body); or a short one that carries the page's number, the line in the same
 * place on a page near it carrying the number that many pages less or more (a short chapter's
 * head, "Chapter 2: Definitions 4", is on too few pages to repeat), set no larger than the body.
 * They are furniture, and between two pages they would cut the sentence running over the break.
 */
function withoutRunningLines(pages: PageLine[][], bodySize: number): PageLine[][] {
  const keyOf = (line: PageLine) =>
    line.text
      .toLowerCase()
      .replace(/\b[ivxlc]+\b|\d+/g, '#')
      .replace(/\s+/g, ' ')
      .trim();
  const counts = new Map<string, number>();
  const edges = (page: PageLine[]) => [
    ...new Set([page[0], page.at(-1)].filter((line) => line !== undefined)),
  ];
  for (const page of pages) {
    for (const key of new Set(edges(page).map(keyOf))) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  // Running heads are set no larger than the body: "Part 1", "Part 2" atop their pages in large
  // type are headings that share a shape, not furniture.
  const repeated = (line: PageLine | undefined) =>
    line !== undefined && sizeOf(line) <= bodySize && (counts.get(keyOf(line)) ?? 0) >= RUNNING_LINE_PAGES;
  // A heading set larger than the body ("1 Introduction") carries a number too, but no page's.
  const numbersAt = (index: number, edge: 0 | -1) => {
    const line = pages[index]?.at(edge);
    return line && sizeOf(line) <= bodySize ? pageNumbersOf(line.text) : [];
  };
  const numbered = (index: number, edge: 0 | -1) =>
    numbersAt(index, edge).some((number) => {
      for (let step = -PAGE_NUMBER_REACH; step <= PAGE_NUMBER_REACH; step++) {
        if (step !== 0 && numbersAt(index + step, edge).includes(number + step)) return true;
      }
      return false;
    });
  return pages.map((page, index) => {
    let start = 0;
    let end = page.length;
    if (repeated(page[0]) || numbered(index, 0)) start++;
    if (end > start && (repeated(page[end - 1]) || numbered(index, -1))) end--;
    return start === 0 && end === page.length ? page : page.slice(start, end);
  });
}

/** The numbers a short line carries at its start or its end, where a page number is printed. */
function pageNumbersOf(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed.split(/\s+/).length > RUNNING_LINE_WORDS) return [];
  const numbers: number[] = [];
  // The number may stand against the title with no space: the gap between them is a column gap.
  const first = /^\W{0,2}(\d{1,4})(?!\d)/.exec(trimmed);
  const last = /(?<!\d)(\d{1,4})\W{0,2}$/.exec(trimmed);
  if (first) numbers.push(Number(first[1]));
  if (last) numbers.push(Number(last[1]));
  return numbers;
}

/** How many pages away the page numbered in step may be (a chapter's first page has no head). */
const PAGE_NUMBER_REACH = 3;
/** The longest running head or foot, in words. */
const RUNNING_LINE_WORDS = 12;

/**
 * A printed document's table of contents or index, written with dot leaders to a page number
 * ("Start Conditions . . . . . . 25", "yytext ........ 12"): those lines point into the document
 * and say nothing of their own, and a question that a heading answers would otherwise find its
 * words there first. A page made mostly of such lines is dropped whole (an entry that runs over
 * two lines has its leader on the second only), and such a line on any other page too. The number
 * must be one of the document's pages (or a roman one, of its front matter): a price list's
 * "Espresso . . . . 12" on a page of two is no reference.
 */
function withoutContentsPages(pages: PageLine[][]): PageLine[][] {
  const leads = (line: PageLine) => {
    const number = DOT_LEADER.exec(line.text)?.[1];
    return number !== undefined && (/^[ivxlc]+$/i.test(number) || Number(number) <= pages.length);
  };
  return pages.map((page) => {
    const leaders = page.filter(leads).length;
    if (leaders >= CONTENTS_PAGE_LINES && leaders >= page.length * CONTENTS_PAGE_SHARE) return [];
    return leaders > 0 ? page.filter((line) => !leads(line)) : page;
  });
}

/** Dots (spaced or not, at least four) running to a page number that ends the line. */
const DOT_LEADER = /(?:\.\s*){4,}([ivxlc]+|\d+)\s*$/i;
/** A page with at least this many leader lines, */
const CONTENTS_PAGE_LINES = 5;
/** making up at least this share of its lines, is a contents or index page. */
const CONTENTS_PAGE_SHARE = 0.5;

function sizeOf(line: PageLine): number {
  return Math.round(line.fontSize * 2) / 2;
}

/** Set larger than the body, and short: a heading. */
function isHeading(line: PageLine, bodySize: number): boolean {
  const text = line.text.trim();
  return sizeOf(line) >= bodySize * 1.15 && text.split(/\s+/).length <= 15 && !/[.,;:]$/.test(text);
}

/**
 * The left margin: the leftmost x that many lines start at (MARGIN_SHARE of them; indented
 * examples and term descriptions may outnumber the lines at the margin, and a stray mark further
 * out counts for nothing). Infinite where there are no lines.
 */
function commonMargin(lines: readonly PageLine[]): number {
  const starts = new Map<number, number>();
  for (const line of lines) {
    const x = Math.round(line.x);
    starts.set(x, (starts.get(x) ?? 0) + 1);
  }
  let margin = Number.POSITIVE_INFINITY;
  for (const [x, count] of starts) if (count >= lines.length * MARGIN_SHARE && x < margin) margin = x;
  return margin;
}

/** The most space between two lines of one title, in its type size (the next heading is further down). */
const WRAPPED_TITLE_GAP = 1.6;
/** Lines a side of the spread needs for a margin of its own. */
const SIDE_MARGIN_LINES = 40;
/** The share of a document's lines that must start at an x for it to be the margin. */
const MARGIN_SHARE = 0.1;

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

function layOut(
  lines: readonly PageLine[],
  bodySize: number,
  headingSizes: readonly number[],
  lineGap: number,
  margin: number,
): string {
  if (lines.length === 0) return '';
  // Indentation is measured from the left margin of the document's pages (of this side of the
  // spread), so a page that holds only an indented block (its running head gone) keeps it
  // indented; from the page's own leftmost line where something stands further out.
  // In a loop: spreading a page of very many lines into Math.min overflows the stack.
  let left = margin;
  for (const line of lines) if (line.x < left) left = line.x;
  const columnOf = (x: number) => Math.round((x - left) / (bodySize * 0.5));
  const out: string[] = [];
  lines.forEach((line, index) => {
    const gap = index > 0 ? lines[index - 1].y - line.y : 0;
    if (isHeading(line, bodySize)) {
      const rank = Math.min(headingSizes.indexOf(sizeOf(line)), PDF_HEADING_UNDERLINES.length - 1);
      const previous = lines[index - 1];
      // A title too long for one line goes on in the same type right under it: one heading
      // ("Appendix B Major Differences From The Bourne" / "Shell"), not a heading and another below.
      if (
        previous !== undefined &&
        isHeading(previous, bodySize) &&
        sizeOf(previous) === sizeOf(line) &&
        gap > 0 &&
        gap <= line.fontSize * WRAPPED_TITLE_GAP &&
        out.length >= 3
      ) {
        // The heading just laid out is the last four entries: '', its title, its underline, ''.
        const title = `${out[out.length - 3]} ${line.text.trim()}`;
        out.splice(out.length - 3, 2, title, PDF_HEADING_UNDERLINES[rank].repeat(Math.max(3, title.length)));
        return;
      }
      const title = line.text.trim();
      out.push('', title, PDF_HEADING_UNDERLINES[rank].repeat(Math.max(3, title.length)), '');
      return;
    }
    if (index > 0 && (gap > lineGap * 1.4 || gap < 0)) out.push('');
    const indent = (x: number) => {
      const columns = columnOf(x);
      return columns >= 2 ? ' '.repeat(Math.min(columns, 40)) : '';
    };
    const pieces = piecesOf(line);
    const next = lines[index + 1];
    if (
      pieces.length > 1 &&
      next !== undefined &&
      !isHeading(next, bodySize) &&
      next.x > line.x + SAME_X &&
      Math.abs(next.x - pieces[1].x) <= SAME_X &&
      pieces[0].text.split(/\s+/).length <= 6
    ) {
      // A term and its description set beside it, the description's later lines indented to
      // where it starts (a hanging indent: `BASHOPTS  A colon-separated list ...` / `  argument
      // for ...`): the term on a line of its own, the description beneath it, as a term list is
      // written in text.
      out.push(`${indent(line.x)}${pieces[0].text}`);
      out.push(
        `${indent(pieces[1].x)}${pieces
          .slice(1)
          .map((piece) => piece.text)
          .join('  ')}`,
      );
      return;
    }
    // Cells of a row keep their columns (two spaces at least), so a table reads as rows.
    let text = `${indent(line.x)}${pieces[0].text}`;
    for (const piece of pieces.slice(1)) {
      text += `${' '.repeat(Math.max(2, Math.min(columnOf(piece.x), 120) - text.length))}${piece.text}`;
    }
    out.push(text);
  });
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** A line's text cut at its column gaps, each piece with the page x it starts at. */
function piecesOf(line: PageLine): { text: string; x: number }[] {
  const pieces: { text: string; x: number }[] = [];
  let from = 0;
  let x = line.x;
  for (const column of line.columns) {
    pieces.push({ text: line.text.slice(from, column.at), x });
    from = column.at;
    x = column.x;
  }
  pieces.push({ text: line.text.slice(from), x });
  return pieces.map((piece) => ({ ...piece, text: piece.text.trim() })).filter((piece) => piece.text !== '');
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
