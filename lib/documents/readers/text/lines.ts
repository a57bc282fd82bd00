/** One physical line of a plain-text document, measured once. */
export interface SourceLine {
  /** 1-based line number in the stored text. */
  number: number;
  /** Columns of leading whitespace (tabs to 8-column stops). */
  indent: number;
  /** The line without its indentation or trailing whitespace (inner tabs expanded). */
  text: string;
  /** 1-based page (form feeds separate pages). */
  page: number;
}

/**
 * The least indentation of some lines (Infinity for none), in a loop: spreading a long run of
 * lines into Math.min overflows the stack.
 */
export function leastIndent(lines: readonly { indent: number }[]): number {
  let least = Number.POSITIVE_INFINITY;
  for (const line of lines) if (line.indent < least) least = line.indent;
  return least;
}

/** Splits a text into measured lines; a form feed starts a new page. */
export function sourceLines(text: string): SourceLine[] {
  const raw = text.split(/\r?\n/);
  const lines: SourceLine[] = new Array(raw.length);
  let page = 1;
  for (let i = 0; i < raw.length; i++) {
    let line = raw[i];
    if (line.includes('\f')) {
      page += line.split('\f').length - 1;
      line = line.replaceAll('\f', '');
    }
    if (line.includes('\t')) line = expandTabs(line);
    const body = line.trimStart();
    lines[i] = { number: i + 1, indent: line.length - body.length, text: body.trimEnd(), page };
  }
  return lines;
}

function expandTabs(line: string): string {
  let out = '';
  for (const character of line) {
    if (character === '\t') out += ' '.repeat(8 - (out.length % 8));
    else out += character;
  }
  return out;
}

/**
 * Underlines the PDF extractor puts under headings (larger type), by rank: the text reader reads a
 * PDF's with these levels, the largest type outermost.
 */
export const PDF_HEADING_UNDERLINES = ['=', '-', '~'] as const;

/** A line of ===, ---, ~~~ (three or more): underlines the heading above it, or separates. */
export const UNDERLINE = /^([=\-~^*+#_])\1{2,}$/;
/** A manual page's header: `GREP(1)   User Commands   GREP(1)`. */
export const MAN_HEADER = /^(\S+)\(([0-9][\w]*)\)\s{3,}\S.*\s{3,}\1\(\2\)$/;
/** A manual page's footer: three columns, ending with the page name or the first column again. */
const MAN_FOOTER = /^(\S+)(?:\s\S+)*\s{3,}\S.*\S\s{3,}(\S+)$/;
/** A bullet or numbered list marker. */
export const BULLET = /^(?:[-*+•·▪‣◦]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+(?=\S)/;
/** A dot leader with a page number: `Introduction ........ 3`. */
const DOT_LEADER = /(?:\.\s?){4,}\s*\d+$/;
/** A line that only points elsewhere: `* See section 12.5, "How do I ..."`. */
const CROSS_REFERENCE =
  /^(?:[-*•]\s+)?(?:see|cf\.?)\s+(?:also\s+)?(?:the\s+)?(?:section|chapter|§)\s*(?:section\s*)?[\d.]+/i;
/** Vim help navigation: `|10.1| Record ...`, `Next chapter: |usr_11.txt|`. */
const NAVIGATION = /^\|[^|\s]+\||^(?:next chapter|previous chapter|table of contents):\s*\|/i;
/** Vim help anchors alone on a line: `*tag* *other-tag*`. */
const TAGS_ONLY = /^(?:\*[^*\s]+\*\s*)+$/;
/** Vim help's first line: `*usr_10.txt*  For Vim version 9.0.  Last change: ...`. */
const VIM_FILE_HEADER = /^\*[^*\s]+\*\s+For Vim version/;

/** A page header/footer line of a manual page. */
export function isManFooter(text: string, title: string | undefined): boolean {
  if (title === undefined) return false;
  const match = MAN_FOOTER.exec(text);
  if (!match) return false;
  return (
    match[2] === match[1] || match[2].toUpperCase() === `${title}`.toUpperCase() || /\(\w+\)$/.test(match[2])
  );
}

/** Lines that are never content: navigation, anchors, dot leaders, bare cross-references. */
export function isFurniture(text: string): boolean {
  if (text.length > 200) return false;
  return (
    TAGS_ONLY.test(text) ||
    VIM_FILE_HEADER.test(text) ||
    NAVIGATION.test(text) ||
    DOT_LEADER.test(text) ||
    (CROSS_REFERENCE.test(text) && text.split(/\s+/).length <= 20)
  );
}

/**
 * A heading's text made comparable: no numbering, punctuation or page numbers, and no case
 * unless `keepCase` (a contents line repeats its heading's case: "EMACS" the variable's heading
 * is not listed by "emacs" the option).
 */
export function headingKey(text: string, keepCase = false): string {
  const bare = text
    .replace(BULLET, '')
    .replace(/^(?:section\s+)?\d+(?:\.\d+)*\.?\s+/i, '')
    .replace(/(?:\.\s?){2,}\s*\d*$/, '');
  return (keepCase ? bare : bare.toLowerCase()).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

const WORD = /^["'“‘(]?\p{L}[\p{L}'’-]*[,.;:!?)"”’]*$/u;

/** Reads like sentences (mostly words, ending like a sentence or long), not like code or commands. */
export function isProseLike(lines: readonly SourceLine[]): boolean {
  let tokens = 0;
  let words = 0;
  for (const line of lines) {
    for (const token of line.text.split(/\s+/)) {
      if (token === '') continue;
      tokens++;
      if (WORD.test(token)) words++;
    }
  }
  if (tokens === 0) return false;
  const last = lines[lines.length - 1].text;
  const share = words / tokens;
  return share >= 0.6 && (/[.!?:)]$/.test(last) || tokens >= 8 || (share >= 0.85 && tokens >= 5));
}

/** Joins hard-wrapped lines into one; a word hyphenated across a line end is mended. */
export function joinLines(texts: readonly string[]): string {
  // Parts joined once at the end: testing or slicing a string built up by `+=` flattens it
  // each time, quadratic over a long entry.
  const parts: string[] = [];
  for (const raw of texts) {
    const text = raw.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const last = parts.length - 1;
    if (last >= 0 && /\p{Ll}[-\u2010\u00ad]$/u.test(parts[last]) && /^\p{Ll}/u.test(text)) {
      parts[last] = parts[last].slice(0, -1) + text;
    } else parts.push(text);
  }
  return parts.join(' ');
}
