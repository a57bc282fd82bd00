import { SectionBuilder } from '../section-builder.js';
import type { Block, Section } from '../types.js';
import { leastIndent } from './text/lines.js';

/**
 * Reads Vim's help format (`:help help-writing`), the format of Vim's user and reference manuals:
 * - the file's first line `*usr_05.txt*  For Vim version 9.0 ...` and the centred lines under it
 *   (the manual's name, then the chapter's title, which becomes the document's title);
 * - `====` lines separate sections: the line after one is the section's heading
 *   (`*05.1*  The vimrc file   *vimrc-intro*` reads "The vimrc file"), `----` lines subsections;
 *   a line in capitals alone at the margin, or a line ending in " ~", is a heading under it;
 * - `*tag*` anchors are dropped (alone on a line or right-aligned after text), `|link|`
 *   references read as their words, navigation ("Next chapter:", the chapter's list of
 *   `|05.1|` sections) and the closing `vim:...:ft=help` modeline are dropped;
 * - a line ending in " >" announces an example: the indented lines after it are a code block, up
 *   to a line starting with "<" or text at the margin; indented lines ending in " ~" are sample
 *   text shown as it looks (code too);
 * - indented column layouts (`qa<Tab><Tab>Start recording a macro in register a.`) are rows:
 *   "qa: Start recording ...", named by the first column, with deeper-indented lines continuing
 *   the description;
 * - paragraphs are hard-wrapped lines joined; a line indented by spaces after a sentence starts a
 *   new one (the manual's way of starting a paragraph without a blank line); "1." items are list
 *   items.
 */
export function readVimHelp(text: string): { title?: string; sections: Section[] } {
  const reader = new VimHelpReader(text.replace(/\r\n?/g, '\n').split('\n'));
  reader.read();
  return { ...(reader.title ? { title: reader.title } : {}), sections: reader.builder.finish() };
}

/**
 * Whether a text is Vim help: its modeline (`vim:tw=78:ts=8:ft=help:norl:`) in its last lines,
 * or its first line naming the help file and Vim's version. A `.txt` file sent as text is read by
 * this reader when either holds, as Vim itself recognises the format.
 */
export function isVimHelp(text: string): boolean {
  const head = text.slice(0, 200);
  if (/^\*[^*\s]+\.txt\*\s+For Vim version\b/.test(head)) return true;
  const tail = text.slice(-400).trimEnd().split('\n').slice(-3).join('\n');
  return /\bvim(?:600)?:[^\n]*\b(?:ft|filetype)=help\b/.test(tail);
}

/** Columns of a tab in help files: they are written with ts=8. */
const TAB = 8;
const SEPARATOR = /^={20,}\s*$/;
const SUB_SEPARATOR = /^-{20,}\s*$/;
const FILE_HEADER = /^\*[^*\s]+\*\s+For Vim version\b/;
const MANUAL_BANNER = /^VIM (?:USER|REFERENCE) MANUAL\b/i;
const NAVIGATION = /^(?:Next chapter|Previous chapter|Table of contents|Copyright):/i;
const MODELINE = /\bvim(?:600)?:[^\n]*\b(?:ft|filetype)=help\b/;
/** A `*tag*`: no blanks, no bars, no quotes inside (so `"*" and "#"` is not one). */
const TAG = /\*([^*\s|"']+)\*/g;
const TAGS_ONLY = /^(?:\*[^*\s|"']+\*\s*)+$/;
const TRAILING_TAGS = /(?:\s+\*[^*\s|"']+\*)+\s*$/;
/** `|link|`: a reference to another tag, read as its words. */
const LINK = /\|([^|\s]+)\|/g;
/** A line of the chapter's own list of sections: `|05.1|<Tab>The vimrc file`. */
const CONTENTS_LINE = /^\|[^|\s]+\|\s+\S/;
const NUMBERED_TAG = /^\*(\d+(?:\.\d+)*)\*\s+/;
const CAPITALS = /^[A-Z][A-Z0-9 ,.'"&/()-]*[A-Z0-9)?!]$/;
const LIST_ITEM = /^(?:\d+[.)]|[-•*])\s+\S/;
/**
 * Two columns: a short first cell (a key, a command, an option) not ending a sentence, then a tab
 * or at least two spaces, then more. Prose with two spaces after a full stop is not one.
 */
const COLUMNS = /^(\S(?:[^\t]{0,22}?[^\s.!?])?)(?:\t+| {2,})(\S.*)$/;
/** Two columns at the margin: only a tab separates them there (prose has two spaces after a full stop). */
const MARGIN_COLUMNS = /^(\S(?:[^\t]{0,22}?[^\s.!?:])?)\t+(\S.*)$/;
/** A screen picture or diagram line: a box's edge, or more signs than letters. */
function isPicture(text: string): boolean {
  if (/^[+|]/.test(text)) return true;
  const visible = text.replace(/\s/g, '');
  const letters = visible.replace(/[^A-Za-z]/g, '').length;
  return visible.length >= 4 && letters < visible.length / 2;
}

interface Line {
  /** 1-based line number. */
  number: number;
  /** The line with tabs as they are. */
  raw: string;
  /** Trimmed text. */
  text: string;
  /** Leading white space in columns (tabs to 8). */
  indent: number;
  /** Leading white space starts with a tab (examples and column layouts) rather than spaces. */
  tabbed: boolean;
}

function lineOf(raw: string, index: number): Line {
  let indent = 0;
  let i = 0;
  for (; i < raw.length; i++) {
    if (raw[i] === ' ') indent++;
    else if (raw[i] === '\t') indent = (Math.floor(indent / TAB) + 1) * TAB;
    else break;
  }
  return { number: index + 1, raw, text: raw.trim(), indent, tabbed: raw.startsWith('\t') };
}

/** Prose as read: tags dropped, links to their words, white space single. */
function prose(text: string): string {
  return text.replace(TRAILING_TAGS, '').replace(TAG, '$1').replace(LINK, '$1').replace(/\s+/g, ' ').trim();
}

/** A heading's words: its number tag and anchors dropped. */
function headingText(text: string): string {
  return prose(text.replace(NUMBERED_TAG, '').replace(/\s+~$/, ''));
}

class VimHelpReader {
  readonly builder = new SectionBuilder();
  title: string | undefined;
  private readonly lines: Line[];

  constructor(raw: string[]) {
    this.lines = raw.map(lineOf);
  }

  read(): void {
    let i = this.readTop();
    let afterSeparator: 1 | 2 | undefined;
    while (i < this.lines.length) {
      const line = this.lines[i];
      if (line.text === '') {
        i++;
        continue;
      }
      if (SEPARATOR.test(line.text) || SUB_SEPARATOR.test(line.text)) {
        afterSeparator = SEPARATOR.test(line.text) ? 1 : 2;
        i++;
        continue;
      }
      if (this.isDropped(line)) {
        i++;
        continue;
      }
      if (afterSeparator !== undefined && line.indent === 0) {
        // The first line after a separator names the section (reference manuals' "1. Setting
        // options  *set-option*" as much as the user manual's "*05.1*  The vimrc file").
        const heading = headingText(line.text);
        afterSeparator = this.openSection(afterSeparator, heading, i);
        i++;
        continue;
      }
      afterSeparator = undefined;
      if (this.isSubheading(i)) {
        this.builder.heading(3, headingText(line.text));
        i++;
        continue;
      }
      i = this.readBlock(i);
    }
  }

  /** Opens the section a separator's next line names; a line of anchors only names none. */
  private openSection(level: 1 | 2, heading: string, _i: number): 1 | 2 | undefined {
    if (heading === '') return level;
    this.builder.heading(level === 1 ? 1 : 2, heading);
    return undefined;
  }

  /**
   * The file's header: the `*file.txt*  For Vim version` line, the manual's banner and the centred
   * title under it, then the chapter's introduction up to the first separator (its list of
   * sections and navigation dropped as everywhere).
   */
  private readTop(): number {
    let i = 0;
    while (i < this.lines.length && this.lines[i].text === '') i++;
    if (i < this.lines.length && FILE_HEADER.test(this.lines[i].text)) i++;
    // Centred lines (deeply indented, short) before any text at the margin: banner and title.
    const titles: string[] = [];
    for (; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (line.text === '') continue;
      if (line.indent < 8 || line.text.length > 60) break;
      if (MANUAL_BANNER.test(line.text)) continue;
      titles.push(prose(line.text));
    }
    // A reference manual's title is at the margin with its anchor: "Options<Tab>*options*".
    const margin = this.lines[i];
    if (titles.length === 0 && margin && margin.indent === 0 && TRAILING_TAGS.test(margin.text)) {
      const words = prose(margin.text);
      if (words.length <= 60 && !SEPARATOR.test(margin.text)) {
        titles.push(words);
        i++;
      }
    }
    const title = titles.join(' ').trim();
    if (title) {
      this.title = title;
      // The chapter's title heads every section of the file, as a Markdown H1 does.
      this.builder.heading(0, title);
    }
    return i;
  }

  /** Lines that are not text: anchors alone, navigation, the chapter's contents, the modeline. */
  private isDropped(line: Line): boolean {
    return (
      TAGS_ONLY.test(line.text) ||
      NAVIGATION.test(line.text) ||
      MODELINE.test(line.text) ||
      (line.indent === 0 && CONTENTS_LINE.test(line.text)) ||
      FILE_HEADER.test(line.text)
    );
  }

  /** A line in capitals alone at the margin, or ending in " ~" at the margin: a heading. */
  private isSubheading(i: number): boolean {
    const line = this.lines[i];
    if (line.indent !== 0) return false;
    const before = this.lines[i - 1];
    const after = this.lines[i + 1];
    const alone = (!before || before.text === '') && (!after || after.text === '');
    if (/\s~$/.test(line.text)) return true;
    const words = line.text.replace(TRAILING_TAGS, '');
    return alone && words.length <= 60 && CAPITALS.test(words) && /[A-Z]{2}/.test(words);
  }

  /** A line at the margin whose short first column is followed by a tab and more. */
  private isMarginRow(i: number): boolean {
    const line = this.lines[i];
    if (line?.indent !== 0 || line.text === '') return false;
    return MARGIN_COLUMNS.test(line.raw.replace(TRAILING_TAGS, ''));
  }

  /** Reads the block starting at `i` (not blank, not a heading); returns the next line. */
  private readBlock(i: number): number {
    const line = this.lines[i];
    if (line.indent > 0 && /\s~$/.test(line.text)) return this.readSample(i);
    if (line.indent > 0 && this.indentedRun(i).some((run) => isPicture(run.text))) return this.readPicture(i);
    if (line.indent > 0 && line.tabbed && COLUMNS.test(line.raw.trim().replace(TRAILING_TAGS, ''))) {
      return this.readRows(i);
    }
    // A column layout at the margin ("x<Tab>delete character ..."): two such lines at least, so
    // that a lone line with a tab in it stays prose.
    if (this.isMarginRow(i) && this.isMarginRow(i + 1)) return this.readRows(i);
    if (line.indent === 0 && LIST_ITEM.test(line.text)) return this.readParagraph(i, 'list-item');
    return this.readParagraph(i, 'paragraph');
  }

  /**
   * Hard-wrapped lines joined into one block, up to a blank line, a separator, a line indented
   * by spaces after a finished sentence (a new paragraph), a new list item, or a line ending in
   * " >" (whose example follows as code).
   */
  private readParagraph(start: number, kind: 'paragraph' | 'list-item'): number {
    const parts: string[] = [];
    let i = start;
    let example = false;
    for (; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (line.text === '' || SEPARATOR.test(line.text) || SUB_SEPARATOR.test(line.text)) break;
      if (i > start) {
        if (this.isDropped(line)) continue;
        if (line.indent === 0 && LIST_ITEM.test(line.text)) break;
        if (kind === 'paragraph' && !line.tabbed && line.indent > 0 && /[.!?:)"]$/.test(parts.at(-1) ?? ''))
          break;
        if (line.tabbed && line.indent > 0 && kind === 'paragraph' && this.lines[start].indent === 0) break;
      }
      const marked = /(?:^|\s)>$/.exec(line.text);
      parts.push(marked ? line.text.slice(0, marked.index) : line.text);
      if (marked) {
        example = true;
        i++;
        break;
      }
    }
    const text = prose(parts.join(' '));
    if (text) this.add({ kind, text, line: this.lines[start].number });
    return example ? this.readExample(i) : i;
  }

  /**
   * The example after a line ending in ">": indented lines (blank ones inside kept) up to a line
   * starting with "<" (the rest of which is read on) or a non-blank line at the margin.
   */
  private readExample(start: number): number {
    const body: Line[] = [];
    let i = start;
    for (; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (line.text === '') {
        body.push(line);
        continue;
      }
      if (line.raw.startsWith('<')) {
        this.lines[i] = lineOf(line.raw.slice(1), i);
        break;
      }
      if (line.indent === 0) break;
      body.push(line);
    }
    while (body.length > 0 && body[body.length - 1].text === '') body.pop();
    while (body.length > 0 && body[0].text === '') body.shift();
    const first = body.find((line) => line.text !== '');
    if (first) {
      const shared = leastIndent(body.filter((line) => line.text !== ''));
      const code = body.map((line) => dedent(line.raw, shared)).join('\n');
      this.add({ kind: 'code', text: code, line: first.number });
    }
    return i;
  }

  /** The indented lines from `start` up to a blank line or text at the margin. */
  private indentedRun(start: number): Line[] {
    const run: Line[] = [];
    for (let i = start; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (line.text === '' || line.indent === 0) break;
      run.push(line);
    }
    return run;
  }

  /** An indented screen picture or diagram: kept whole, as code, with its layout. */
  private readPicture(start: number): number {
    const run = this.indentedRun(start);
    const shared = leastIndent(run);
    this.add({
      kind: 'code',
      text: run.map((line) => dedent(line.raw, shared)).join('\n'),
      line: run[0].number,
    });
    return start + run.length;
  }

  /** Indented lines ending in " ~": text shown as it looks on screen, kept as code. */
  private readSample(start: number): number {
    const body: string[] = [];
    let i = start;
    for (; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (line.text === '' || line.indent === 0 || !/\s~$|^~$/.test(line.text)) break;
      body.push(line.text.replace(/\s*~$/, ''));
    }
    this.add({ kind: 'code', text: body.join('\n'), line: this.lines[start].number });
    return i;
  }

  /**
   * A column layout: each row "first cell: the rest", named by its first cell; a deeper-indented
   * line with no second column continues the row above (a description wrapped under itself).
   */
  private readRows(start: number): number {
    let i = start;
    let row: { name: string; description: string[]; line: number; indent: number } | undefined;
    const flush = () => {
      if (!row) return;
      const description = prose(row.description.join(' '));
      const name = prose(row.name);
      if (name) {
        this.add({
          kind: 'table-row',
          text: description ? `${name}: ${description}` : name,
          line: row.line,
          name,
        });
      }
      row = undefined;
    };
    const base = this.lines[start].indent;
    for (; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (line.text === '' || line.indent < base || /\s~$/.test(line.text)) break;
      if (base === 0 && line.indent === 0 && !this.isMarginRow(i)) break;
      const cells = COLUMNS.exec(line.raw.trim().replace(TRAILING_TAGS, ''));
      if (row && line.indent > row.indent) {
        // A description wrapped under itself: part of the row above.
        row.description.push(line.text);
        continue;
      }
      flush();
      // A first column alone (a long command whose description is on the next, deeper line).
      row = cells
        ? { name: cells[1], description: [cells[2]], line: line.number, indent: line.indent }
        : { name: line.text, description: [], line: line.number, indent: line.indent };
    }
    flush();
    return i;
  }

  private add(block: Block): void {
    this.builder.block(block);
  }
}

/** A line with tabs expanded (to 8, as help files are written) and `columns` of indent removed. */
function dedent(raw: string, columns: number): string {
  let expanded = '';
  for (const char of raw) {
    expanded += char === '\t' ? ' '.repeat(TAB - (expanded.length % TAB)) : char;
  }
  return expanded.slice(Math.min(columns, expanded.length - expanded.trimStart().length)).replace(/\s+$/, '');
}
