import { splitSentences } from './sentences.js';

/**
 * How a block of text is laid out: `line` when each physical line is a unit of its own (a verse,
 * a list item, one sentence a line), `paragraph` when lines are hard-wrapped prose.
 */
export type Layout = 'line' | 'paragraph';

/** What a reader would call one passage: a line, or a hard-wrapped paragraph joined up. */
export interface TextUnit {
  /** 1-based number of the unit's first physical line in the text. */
  line: number;
  /** The unit's text on one line (a paragraph's lines joined with single spaces). */
  text: string;
  /** Its sentences: the line itself in `line` layout, the paragraph's sentences otherwise. */
  sentences: string[];
  layout: Layout;
}

const LINE_BREAK = /\r?\n/;
/** A line that ends where a sentence or clause may end (or a closing quote/bracket after it). */
const ENDS_UNIT = /[.!?:;,)\]"'’”»…—-]\s*$/;
/** Lines of a list, a heading or a table: units of their own even inside prose. */
const STANDS_ALONE = /^\s*(?:[-*+•]\s|\d+[.)]\s|#{1,6}\s|\|)/;
/** Share of a block's non-final lines that run on into the next before we call it wrapped. */
const WRAPPED_SHARE = 0.3;

/**
 * Splits text into units. Blocks are separated by blank lines; a block whose lines mostly run on
 * (end without punctuation) is hard-wrapped prose, and becomes one paragraph unit; otherwise each
 * line is a unit (one verse or sentence a line, as KenLM reads a corpus).
 */
export function segmentText(text: string): TextUnit[] {
  const units: TextUnit[] = [];
  const lines = text.split(LINE_BREAK);
  let block: { line: number; text: string }[] = [];
  const flush = () => {
    if (block.length > 0) units.push(...unitsOfBlock(block));
    block = [];
  };
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') flush();
    else block.push({ line: index + 1, text: line });
  });
  flush();
  return units;
}

function unitsOfBlock(block: { line: number; text: string }[]): TextUnit[] {
  if (!isWrapped(block)) return block.map(({ line, text }) => lineUnit(line, text));
  const units: TextUnit[] = [];
  let paragraph: { line: number; text: string }[] = [];
  const flush = () => {
    if (paragraph.length === 1) units.push(lineUnit(paragraph[0].line, paragraph[0].text));
    else if (paragraph.length > 1) {
      const joined = joinWrapped(paragraph.map((entry) => entry.text));
      units.push({
        line: paragraph[0].line,
        text: joined,
        sentences: splitSentences(joined),
        layout: 'paragraph',
      });
    }
    paragraph = [];
  };
  block.forEach((entry, i) => {
    if (standsAlone(entry.text, block[i - 1]?.text)) {
      flush();
      units.push(lineUnit(entry.line, entry.text));
    } else paragraph.push(entry);
  });
  flush();
  return units;
}

/** Whether a line is a unit of its own inside prose (a list item, a heading, a table row). */
function standsAlone(text: string, previous: string | undefined): boolean {
  return STANDS_ALONE.test(text) && !(previous !== undefined && wrapsMidSentence(previous, text));
}

/**
 * A number that starts a line in the middle of a sentence ("... returns a status of" / "127. If a
 * command is found ...") is the sentence's word wrapped to the next line, not a list's number: an
 * item starts after a sentence ends or a lead-in's colon.
 */
export function wrapsMidSentence(previous: string, line: string): boolean {
  return /^\d{1,3}[.)]\s/.test(line) && /[\p{L},]$/u.test(previous.trimEnd());
}

function isWrapped(block: { text: string }[]): boolean {
  if (block.length < 2) return false;
  let runOn = 0;
  let counted = 0;
  for (let i = 0; i < block.length - 1; i++) {
    if (standsAlone(block[i].text, block[i - 1]?.text)) continue;
    counted++;
    if (!ENDS_UNIT.test(block[i].text)) runOn++;
  }
  return counted > 0 && runOn / counted >= WRAPPED_SHARE;
}

/** Joins wrapped lines; a word hyphenated across a line break is mended ("inter-" + "national"). */
function joinWrapped(lines: string[]): string {
  // Pieces joined once at the end, and the hyphen test made on the last characters only: testing
  // the growing text at each line made a block of 30 000 lines take 46 s.
  const pieces = [lines[0]];
  let tail = lines[0].slice(-2);
  for (let i = 1; i < lines.length; i++) {
    const next = lines[i];
    if (BROKEN_WORD.test(tail) && /^\p{Ll}/u.test(next)) {
      pieces[pieces.length - 1] = pieces[pieces.length - 1].slice(0, -1);
      pieces.push(next);
      tail = (tail.slice(0, -1) + next).slice(-2);
    } else {
      pieces.push(' ', next);
      tail = (tail + ' ' + next).slice(-2);
    }
  }
  return pieces.join('');
}

/** A lower-case letter then a hyphen: a word broken at the end of a wrapped line. */
const BROKEN_WORD = /\p{Ll}[-\u2010\u00ad]$/u;

function lineUnit(line: number, text: string): TextUnit {
  return { line, text, sentences: [text], layout: 'line' };
}
