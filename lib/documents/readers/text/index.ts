import { segmentText, wrapsMidSentence } from '../../../text/index.js';
import { SectionBuilder } from '../../section-builder.js';
import type { Block, Section } from '../../types.js';
import { type HeadingCandidate, headingAt } from './headings.js';
import {
  BULLET,
  headingKey,
  isFurniture,
  isManFooter,
  isProseLike,
  joinLines,
  leastIndent,
  PDF_HEADING_UNDERLINES,
  type SourceLine,
  sourceLines,
  UNDERLINE,
} from './lines.js';
import { termAt } from './terms.js';

export interface TextReadOptions {
  /** Keep page numbers (form feeds separate pages): PDF text. */
  pages?: boolean;
}

const CONTENTS_HEADING = /^(?:table of )?contents$/i;
/** Vim help's mark before an example: a line ending in " >" (or ">" alone). */
const EXAMPLE_MARK = /(?:^|\s)>$/;

/**
 * Reads plain text by the conventions of manuals and FAQs: headings (numbered, underlined, in
 * capitals, manual-page headers, vim help `*tags*`), hard-wrapped paragraphs, lines that are units
 * of their own (a verse a line), lists, term entries (options, variables), and indented examples
 * (code). Tables of contents, navigation and bare cross-references are dropped.
 */
export function readTextSections(text: string, options: TextReadOptions = {}): Section[] {
  return new TextReader(sourceLines(text), options).read();
}

/** An open term entry: later paragraphs indented under its description still describe it. */
interface OpenTerm {
  name: string;
  indent: number;
}

class TextReader {
  private readonly builder = new SectionBuilder();
  /** Each heading's key and the line it was found on. */
  private readonly headingKeys = new Map<string, number>();
  private manTitle: string | undefined;
  private bodyIndent: number | undefined;
  private readonly underlineStyles: string[] = [];
  private structuralLevel = 0;
  private inContents = false;
  private proseIndent: number | undefined;
  private announced = false;
  private exampleMarked = false;
  private openTerms: OpenTerm[] = [];

  constructor(
    private readonly lines: SourceLine[],
    private readonly options: TextReadOptions,
  ) {}

  read(): Section[] {
    this.collectHeadingKeys();
    const { lines } = this;
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (line.text === '') {
        i++;
        continue;
      }
      if (this.options.pages) this.builder.setPage(line.page);
      i = this.readAt(i);
    }
    return this.builder.finish().map(joinBrokenSentences);
  }

  /** Headings first, so a table of contents listing them can be recognised and dropped. */
  private collectHeadingKeys(): void {
    const context = { manPage: false };
    for (let i = 0; i < this.lines.length; i++) {
      const line = this.lines[i];
      if (line.text === '' || line.text.length > 120) continue;
      const heading = headingAt(this.lines, i, context);
      if (heading && heading.kind !== 'man-title') {
        const key = headingKey(heading.text, true);
        if (!this.headingKeys.has(key)) this.headingKeys.set(key, line.number);
      }
    }
  }

  /** Reads what starts at line `i` (not blank); returns the next line to read. */
  private readAt(i: number): number {
    const { lines } = this;
    const line = lines[i];
    const heading = headingAt(lines, i, {
      manPage: this.manTitle !== undefined,
      bodyIndent: this.bodyIndent,
    });
    if (heading) {
      this.openHeading(heading);
      return i + heading.lines;
    }
    if (UNDERLINE.test(line.text) || isFurniture(line.text) || isManFooter(line.text, this.manTitle)) {
      return i + 1;
    }
    if (this.inContents || this.isContentsLine(line)) return i + 1;
    if (this.isContentsTitle(i)) {
      // "Table of Contents" alone: what follows lists the headings, up to the first of them.
      this.inContents = true;
      return i + 1;
    }
    if (this.manTitle !== undefined && this.bodyIndent === undefined && line.indent > 0) {
      this.bodyIndent = line.indent;
    }
    if (this.exampleMarked && line.indent > 0) return this.readExample(i);
    this.exampleMarked = false;
    this.openTerms = this.openTerms.filter((term) => line.indent >= term.indent - 1);
    if (BULLET.test(line.text)) return this.readListItem(i);
    const term = termAt(lines, i);
    if (term) {
      this.builder.block({
        kind: 'list-item',
        text: `${term.name}: ${joinLines(term.description)}`,
        line: line.number,
        name: term.name,
      });
      this.openTerms.push({ name: term.name, indent: term.descriptionIndent });
      this.proseIndent = term.descriptionIndent;
      this.announced = /:$/.test(term.description[term.description.length - 1] ?? '');
      return i + term.lines;
    }
    return this.readRun(i);
  }

  private openHeading(heading: HeadingCandidate): void {
    const level = this.levelOf(heading);
    if (heading.kind !== 'capitals' && heading.kind !== 'subsection') this.structuralLevel = level;
    if (heading.kind === 'man-title') {
      this.manTitle = heading.text.replace(/\(.*$/, '');
      this.bodyIndent = undefined;
    }
    this.inContents = CONTENTS_HEADING.test(heading.text);
    this.proseIndent = undefined;
    this.announced = false;
    this.exampleMarked = false;
    this.openTerms = [];
    if (!this.inContents) this.builder.heading(level, heading.text);
  }

  private levelOf(heading: HeadingCandidate): number {
    switch (heading.kind) {
      case 'man-title':
        return 0;
      case 'underlined': {
        if (heading.depth !== undefined) return heading.depth;
        const style = heading.underline ?? '=';
        if (this.options.pages) {
          const rank = PDF_HEADING_UNDERLINES.indexOf(style as '=');
          if (rank >= 0) return rank + 1;
        }
        if (!this.underlineStyles.includes(style)) this.underlineStyles.push(style);
        return this.underlineStyles.indexOf(style) + 1;
      }
      case 'numbered':
      case 'vim-tag':
        return heading.depth ?? 1;
      case 'capitals':
        return this.manTitle !== undefined ? 1 : this.structuralLevel + 0.5;
      case 'subsection':
        return 1.5;
    }
  }

  /** "Contents" or "Table of Contents" alone at the margin, though not read as a heading. */
  private isContentsTitle(i: number): boolean {
    const line = this.lines[i];
    const blank = (other: SourceLine | undefined) => other === undefined || other.text === '';
    return (
      line.indent === 0 &&
      CONTENTS_HEADING.test(line.text) &&
      blank(this.lines[i - 1]) &&
      blank(this.lines[i + 1])
    );
  }

  /** A line of a table of contents: it repeats a heading of the document. */
  private isContentsLine(line: SourceLine): boolean {
    if (this.headingKeys.size === 0 || line.text.length > 120) return false;
    const key = headingKey(line.text, true);
    // A key of a letter or two is no evidence: an index's letter headings ("A", "B") would
    // otherwise drop every option they spell ("-a", "-b").
    // A line is not a contents entry of the heading it is itself (one the first pass read as a
    // heading, out of context, and this pass reads as a term).
    const at = this.headingKeys.get(key);
    return key.length >= 3 && at !== undefined && at !== line.number;
  }

  /** A bulleted or numbered item with its wrapped lines. */
  private readListItem(i: number): number {
    const { lines } = this;
    const first = lines[i];
    const marker = BULLET.exec(first.text)![0];
    const textIndent = first.indent + marker.length;
    const parts = [first.text.slice(marker.length)];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j];
      if (line.text === '' || line.indent < textIndent - 1 || BULLET.test(line.text)) break;
      parts.push(line.text);
    }
    const text = joinLines(parts);
    const named = /^([^\s:]{1,40}(?: [^\s:]+){0,3})(?::\s| [-–—] )(.+)$/.exec(text);
    this.builder.block({
      kind: 'list-item',
      text,
      line: first.number,
      ...(named ? { name: named[1] } : {}),
    });
    this.announced = /:$/.test(text);
    this.proseIndent = textIndent;
    const after = lines[j + 1];
    if (
      !named &&
      lines[j]?.text === '' &&
      after !== undefined &&
      after.text !== '' &&
      after.indent >= textIndent - 1 &&
      after.indent > first.indent &&
      !BULLET.test(after.text) &&
      isItemName(text)
    ) {
      // An item that names a command or a term, its explanation in paragraphs indented under it
      // after a blank line (DocBook's and many FAQs' lists: "* dpkg --search foo" / "" / "  This
      // searches ..."): those paragraphs describe it and keep its name, as a term's do.
      this.openTerms.push({ name: text, indent: textIndent });
    }
    return j;
  }

  /** Vim help: the indented lines after a line ending in ">", up to one starting with "<" or at the margin. */
  private readExample(i: number): number {
    const { lines } = this;
    const code: SourceLine[] = [];
    let j = i;
    for (; j < lines.length; j++) {
      const line = lines[j];
      if (line.text !== '' && (line.indent === 0 || line.text.startsWith('<'))) break;
      code.push(line);
    }
    this.addCode(code);
    this.exampleMarked = false;
    if (j < lines.length && lines[j].indent === 0 && lines[j].text.startsWith('<')) {
      lines[j] = { ...lines[j], text: lines[j].text.slice(1).trimStart() };
    }
    return j;
  }

  /** Lines up to a blank line or a line that starts something else, read as prose or code. */
  private readRun(i: number): number {
    const { lines } = this;
    const run: SourceLine[] = [lines[i]];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j];
      if (line.text === '' || isFurniture(line.text)) break;
      if (BULLET.test(line.text) && !wrapsMidSentence(run[run.length - 1].text, line.text)) break;
      if (lines[j + 1] && UNDERLINE.test(lines[j + 1].text) && !UNDERLINE.test(line.text)) break;
      if (line.indent > run[0].indent + 1 && !isProseLike([line])) break;
      // A term entry right after a sentence ends (a term list set without space above it):
      // the term and its indented description are an entry, not more of the paragraph.
      if (
        line.indent <= run[0].indent &&
        endsSentence(run[run.length - 1].text) &&
        mayStartTerm(line, lines[j + 1]) &&
        termAt(lines, j)
      ) {
        break;
      }
      // Two term entries in a row, their descriptions in one column, start a listing whatever
      // the line before says (a prompt, "Commands", a lead-in without its colon).
      if (line.indent <= run[0].indent && startsListing(lines, j)) break;
      run.push(line);
    }
    const indent = leastIndent(run);
    if (this.isCentredTitle(run)) {
      // The first centred line names the document; one more before any text ("Version 11.0"
      // under "The Debian GNU/Linux FAQ") is a subtitle, not a heading over everything.
      if (this.builder.innermostLevel === undefined) this.builder.heading(0.25, run[0].text);
      return j;
    }
    const reference = this.proseIndent ?? this.bodyIndent ?? 0;
    const deeper = indent > reference + 1;
    if ((deeper && this.announced) || ((deeper || this.announced) && !isProseLike(run))) {
      return this.readCode(run, j);
    }
    this.addProse(run);
    this.proseIndent = indent;
    return j;
  }

  /** A title centred above the text, before anything else (an FAQ's or a manual's name). */
  private isCentredTitle(run: SourceLine[]): boolean {
    const [line] = run;
    return (
      run.length === 1 &&
      line.indent >= 8 &&
      !this.builder.hasBlocks &&
      line.text.split(/\s+/).length <= 10 &&
      !/[.,;:]$/.test(line.text)
    );
  }

  /** A code block: the run, and the blocks after it indented as deep that are not prose. */
  private readCode(run: SourceLine[], from: number): number {
    const { lines } = this;
    const code = [...run];
    const indent = leastIndent(run);
    let j = from;
    for (;;) {
      let k = j;
      while (k < lines.length && lines[k].text === '') k++;
      if (k >= lines.length || lines[k].indent < indent) break;
      let end = k;
      while (end < lines.length && lines[end].text !== '' && lines[end].indent >= indent) end++;
      const next = lines.slice(k, end);
      if (isProseLike(next)) break;
      code.push(...lines.slice(j, end));
      j = end;
    }
    this.addCode(code);
    return j;
  }

  private addCode(code: SourceLine[]): void {
    while (code.length > 0 && code[code.length - 1].text === '') code.pop();
    if (code.length === 0) return;
    const indent = leastIndent(code.filter((line) => line.text !== ''));
    const text = code
      .map((line) =>
        line.text === '' ? '' : ' '.repeat(line.indent - indent) + line.text.replace(/\s+~$/, ''),
      )
      .join('\n');
    this.builder.block({ kind: 'code', text, line: code[0].number });
    this.announced = false;
  }

  /** Prose: hard-wrapped paragraphs joined, lines that stand alone kept as lines. */
  private addProse(run: SourceLine[]): void {
    const last = run[run.length - 1];
    if (EXAMPLE_MARK.test(last.text)) {
      this.exampleMarked = true;
      run[run.length - 1] = { ...last, text: last.text.replace(/\s*>$/, '') };
    }
    const term = this.openTerms[this.openTerms.length - 1];
    const units = segmentText(mendHyphens(run.map((line) => line.text)).join('\n'));
    for (const unit of units) {
      const text = unit.text.replace(/\s{2,}/g, ' ');
      const line = run[unit.line - 1].number;
      const block: Block =
        term && run[0].indent >= term.indent - 1
          ? { kind: 'list-item', text, line, name: term.name }
          : { kind: unit.layout === 'line' ? 'line' : 'paragraph', text, line };
      this.builder.block(block);
    }
    this.announced = /:$/.test(run[run.length - 1].text) || this.exampleMarked;
  }
}

/**
 * Cheap test before `termAt`, which a text of a sentence a line would otherwise run on every
 * line: a term has its description indented under it, or beside it past a column gap, or is an
 * option (stacked forms).
 */
function mayStartTerm(line: SourceLine, next: SourceLine | undefined): boolean {
  const first = line.text[0];
  return (
    (next !== undefined && next.indent > line.indent) ||
    first === '-' ||
    first === '+' ||
    line.text.includes('  ')
  );
}

/** Ends like a sentence (the last character only: a regex anchored at the end scans the line). */
function endsSentence(text: string): boolean {
  const last = text[text.length - 1];
  return last === '.' || last === '!' || last === '?' || last === ':';
}

/**
 * Lines with a word hyphenated across their break mended (`pre-` / `ceded by` -> `preceded` /
 * `by`), so a run read a line a unit does not keep the halves apart. Line count kept: the rest
 * of the second line stays on its line (a line left empty is dropped by the segmenter).
 */
function mendHyphens(texts: string[]): string[] {
  const out = [...texts];
  for (let k = 0; k + 1 < out.length; k++) {
    const last = out[k][out[k].length - 1];
    if (last !== '-' && last !== '\u2010' && last !== '\u00ad') continue;
    if (!/\p{Ll}/u.test(out[k].slice(-2, -1)) || !/^\p{Ll}/u.test(out[k + 1])) continue;
    const [head, ...rest] = out[k + 1].split(' ');
    out[k] = out[k].slice(0, -1) + head;
    out[k + 1] = rest.join(' ');
  }
  return out;
}

/** A list item short enough to name what the paragraphs under it explain: not a sentence. */
function isItemName(text: string): boolean {
  return text.length <= 60 && text.split(/\s+/).length <= 8 && !/[.,;:!?)]$/.test(text);
}

/** Line `i` and the entry after it are term entries with their descriptions in the same column. */
function startsListing(lines: readonly SourceLine[], i: number): boolean {
  const first = termAt(lines, i);
  if (!first || i + first.lines >= lines.length) return false;
  const second = termAt(lines, i + first.lines);
  return second !== undefined && second.descriptionIndent === first.descriptionIndent;
}

/** Most words of a line set apart inside a sentence: a command, a file name, a value. */
const SET_APART_WORDS = 6;

/**
 * A sentence broken around a line set apart, as text renderings of manuals print an inline
 * command on a line of its own ("… use the" / "lsb_release -a" / "command. It will display …"):
 * prose never ends without a mark, and a sentence never begins in lower case, so a paragraph that
 * ends on a word goes on in the short line after it, and a paragraph that begins in lower case
 * finishes it. They are one paragraph, so the sentence is read (and quoted) whole.
 */
function joinBrokenSentences(section: Section): Section {
  const blocks: Block[] = [];
  // The paragraphs that took in a line set apart: the sentence they hold may go on after it.
  const open = new Set<Block>();
  for (const block of section.blocks) {
    const last = blocks[blocks.length - 1];
    if (last && breaksOff(last) && isSetApart(block)) {
      const joined = { ...last, text: `${last.text} ${block.text}` };
      blocks[blocks.length - 1] = joined;
      open.add(joined);
      continue;
    }
    if (
      last &&
      open.has(last) &&
      (block.kind === 'paragraph' || block.kind === 'line') &&
      /^\p{Ll}/u.test(block.text)
    ) {
      blocks[blocks.length - 1] = { ...last, kind: 'paragraph', text: `${last.text} ${block.text}` };
      continue;
    }
    blocks.push(block);
  }
  return blocks.length === section.blocks.length ? section : { ...section, blocks };
}

/** A short line with no mark at its end: a command or a name set apart inside a sentence. */
function isSetApart(block: Block): boolean {
  return (
    (block.kind === 'line' || block.kind === 'paragraph') &&
    block.text.split(/\s+/).length <= SET_APART_WORDS &&
    !/[.!?:;,]$/.test(block.text)
  );
}

/** Prose of a few words or more that ends on a word, not a mark: its sentence goes on. */
function breaksOff(block: Block): boolean {
  return block.kind === 'paragraph' && /\p{Ll}$/u.test(block.text) && block.text.split(/\s+/).length >= 4;
}
