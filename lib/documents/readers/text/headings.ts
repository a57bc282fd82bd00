import { MAN_HEADER, type SourceLine, UNDERLINE } from './lines.js';

/** A heading found at a line, before its level is known. */
export interface HeadingCandidate {
  kind: 'man-title' | 'underlined' | 'numbered' | 'vim-tag' | 'capitals' | 'subsection';
  text: string;
  /** Lines the heading takes (2 for an underlined one). */
  lines: number;
  /** Depth of its numbering ("12.5." is 2), when numbered. */
  depth?: number;
  /** The underline's character, when underlined. */
  underline?: string;
}

const NUMBERED = /^(\d{1,3}(?:\.\d{1,3})*)\.?\s+(["'“‘(]?\p{L}.*)$/u;
/** A chapter's title as DocBook and many manuals print it: "Chapter 9. Keeping your system up-to-date". */
const CHAPTER = /^(?:Chapter|Appendix)\s+(?:\d{1,3}|[A-Z]|[IVXLC]{1,6})\.?\s+(\p{L}.*)$/u;
/** An appendix's section as manuals number it: "B.1 Implementation Differences", "A.2.3 Limits". */
const APPENDIX_SECTION = /^([A-Z](?:\.\d{1,3})+)\.?\s+(["'“‘(]?\p{L}.*)$/u;
const CAPITALS = /^[\p{Lu}\d][\p{Lu}\d &/,'’()_-]*$/u;
const VIM_TAG_HEADING = /^\*([^*\s|]+)\*\s+(\S.*)$/;
const TRAILING_TAGS = /\s{2,}(?:\*[^*\s]+\*\s*)+$/;

/** What a heading line reads as, without vim's trailing `*tags*`. */
export function headingText(text: string): string {
  return text.endsWith('*') ? text.replace(TRAILING_TAGS, '') : text;
}

function isBlank(line: SourceLine | undefined): boolean {
  return line === undefined || line.text === '';
}

function wordCount(text: string): number {
  return text.split(/\s+/).length;
}

/** Short enough, and not ending like a sentence or clause (a question is fine: an FAQ entry). */
function isTitleLike(text: string, maxWords = 15): boolean {
  return text.length <= 100 && wordCount(text) <= maxWords && !/[.,;:]$/.test(text);
}

/**
 * The heading at line `i`, if any: a manual page header, an underlined title, a numbered title
 * ("12.5. Title", "1 Introduction") standing alone, a vim help `*tag*` title, a title in capitals
 * at the margin, or (in a manual page) a subsection title indented less than the body.
 */
export function headingAt(
  lines: readonly SourceLine[],
  i: number,
  context: { manPage: boolean; bodyIndent?: number },
): HeadingCandidate | undefined {
  const line = lines[i];
  const before = lines[i - 1];
  const next = lines[i + 1];
  const text = headingText(line.text);
  if (text === '' || text.length > 120) return undefined;
  if (i === 0 || isBlank(before) || UNDERLINE.test(before.text)) {
    const header = MAN_HEADER.exec(text);
    if (header && line.indent === 0)
      return { kind: 'man-title', text: `${header[1]}(${header[2]})`, lines: 1 };
  }
  if (next && UNDERLINE.test(next.text) && !UNDERLINE.test(text) && line.indent <= 4) {
    // Numbered as a chapter ("10 Installing"), a section ("3.5"), a chapter or an appendix by name
    // ("Appendix B Major Differences"), or an appendix's section ("B.1"): its depth is the
    // numbering's, whatever the underline (an appendix is a chapter, not a section of the last one).
    const numbered = NUMBERED.exec(text) ?? APPENDIX_SECTION.exec(text);
    const chapter = numbered ? null : CHAPTER.exec(text);
    if (isTitleLike(text.replace(/[.:]$/, '')) && next.text.length >= Math.min(3, text.length / 2)) {
      return {
        kind: 'underlined',
        text: numbered ? numbered[2] : chapter ? chapter[1] : text,
        lines: 2,
        underline: next.text[0],
        ...(numbered ? { depth: numbered[1].split('.').length } : chapter ? { depth: 1 } : {}),
      };
    }
  }
  const alone = i === 0 || isBlank(before) || UNDERLINE.test(before.text);
  if (!alone) return subsectionAt(lines, i, context, text);
  const vim = VIM_TAG_HEADING.exec(text);
  if (vim && line.indent === 0 && !/^For Vim version/.test(vim[2])) {
    const depth = /^\d+(?:\.\d+)*$/.test(vim[1]) ? vim[1].split('.').length : 1;
    return { kind: 'vim-tag', text: vim[2].replace(/\s+~$/, ''), lines: 1, depth };
  }
  const numbered = line.indent <= 4 ? NUMBERED.exec(text) : null;
  if (numbered && isBlank(next) && (isTitleLike(numbered[2]) || introducesIndented(lines, i))) {
    return { kind: 'numbered', text: numbered[2], lines: 1, depth: numbered[1].split('.').length };
  }
  if (numbered && !isBlank(next)) {
    const wrapped = wrappedQuestion(lines, i, numbered[2]);
    if (wrapped) return { kind: 'numbered', ...wrapped, depth: numbered[1].split('.').length };
  }
  const chapter = line.indent === 0 && isBlank(next) ? CHAPTER.exec(text) : null;
  if (chapter && isTitleLike(chapter[1])) return { kind: 'numbered', text: chapter[1], lines: 1, depth: 1 };
  if (
    line.indent === 0 &&
    CAPITALS.test(text) &&
    /\p{Lu}.*\p{Lu}/u.test(text) &&
    wordCount(text) <= 8 &&
    (isBlank(next) || next.indent > 0)
  ) {
    return { kind: 'capitals', text, lines: 1 };
  }
  return subsectionAt(lines, i, context, text);
}

/**
 * A numbered FAQ question wrapped over two or three lines at its own margin ("7.7. What is an
 * Essential, Required, Important, Standard, Optional," / "or Extra package?"), then a blank line
 * and its answer indented under it: the layout of DocBook's and similar FAQs in text. The answer's
 * indentation is what tells a wrapped heading from a numbered paragraph.
 */
function wrappedQuestion(
  lines: readonly SourceLine[],
  i: number,
  first: string,
): { text: string; lines: number } | undefined {
  const line = lines[i];
  const parts = [first];
  // Or wrapped with a hanging indent, under the question's first word past its number ("35. I get
  // this or that …" / "    up to maximally-pedantic. Can't you …?", as the zlib FAQ sets them).
  const hangs = line.indent + (line.text.length - first.length);
  let hanging = false;
  let j = i + 1;
  for (; j < lines.length && j <= i + 2; j++) {
    const next = lines[j];
    if (isBlank(next)) break;
    if (NUMBERED.test(next.text) || UNDERLINE.test(next.text)) return undefined;
    if (next.indent !== line.indent) {
      if (next.indent < hangs - 1 || next.indent > hangs) return undefined;
      hanging = true;
    }
    parts.push(next.text);
  }
  if (!isBlank(lines[j])) return undefined;
  const answer = lines[j + 1];
  if (answer === undefined || answer.text === '' || answer.indent <= line.indent + 1) return undefined;
  const text = parts.join(' ').replace(/\s+/g, ' ');
  const asks = /\?$/.test(text) && text.length <= 240 && wordCount(text) <= 40;
  // A hanging indent is also how a numbered paragraph wraps: only a question is taken for a heading.
  if (!asks && (hanging || !isTitleLike(text))) return undefined;
  return { text, lines: j - i };
}

/** An FAQ's numbered question ending in a full stop, its answer indented under it after a blank line. */
function introducesIndented(lines: readonly SourceLine[], i: number): boolean {
  const text = lines[i].text;
  if (text.length > 100 || wordCount(text) > 15 || !/\.$/.test(text)) return false;
  const answer = lines[i + 2];
  return answer !== undefined && answer.text !== '' && answer.indent > lines[i].indent + 1;
}

/** In a manual page, a title indented less than the body (right under a heading, or alone). */
function subsectionAt(
  lines: readonly SourceLine[],
  i: number,
  context: { manPage: boolean; bodyIndent?: number },
  text: string,
): HeadingCandidate | undefined {
  const line = lines[i];
  const before = lines[i - 1];
  const next = lines[i + 1];
  if (!isBlank(before) && !(before.indent === 0 && CAPITALS.test(before.text))) return undefined;
  if (
    context.manPage &&
    context.bodyIndent !== undefined &&
    line.indent > 0 &&
    line.indent < context.bodyIndent &&
    isTitleLike(text, 8) &&
    next !== undefined &&
    (isBlank(next) || next.indent >= context.bodyIndent)
  ) {
    return { kind: 'subsection', text, lines: 1 };
  }
  return undefined;
}
