import { marked, type Token, type Tokens } from 'marked';
import { SectionBuilder } from '../section-builder.js';
import type { Section } from '../types.js';
import { fencedCode, leadingName, markdownInline, plainInline } from './inline.js';
import { optionEntriesOf } from './option-listing.js';

/**
 * Reads Markdown (CommonMark and GitHub's extensions) through marked's lexer: headings, paragraphs,
 * list items with the name they describe, code blocks whole, table rows, quotes. HTML blocks,
 * badges (paragraphs of images and links only) and tables of contents (lists of in-page links
 * only) are dropped. Each block keeps clean Markdown for replies.
 */
export function readMarkdown(text: string): { title?: string; sections: Section[] } {
  const reader = new MarkdownReader(text);
  reader.readTokens(marked.lexer(text), 0);
  const title = reader.title ?? reader.htmlTitle;
  return { ...(title ? { title } : {}), sections: reader.builder.finish() };
}

/** How far past the expected place a token's raw text may start (blank lines, skipped markup). */
const SEARCH_SLACK = 4096;

class MarkdownReader {
  readonly builder = new SectionBuilder();
  title: string | undefined;
  /** The first HTML `<h1>`: the title when no Markdown H1 gives one. */
  htmlTitle: string | undefined;
  private readonly lineStarts: number[] = [0];

  constructor(private readonly source: string) {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  /** 1-based line of a character offset. */
  private lineAt(offset: number): number {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  /**
   * Where a token's raw text starts, looking only just past `cursor`: a nested item's raw text has
   * its indentation removed and is not in the source as such, and searching the whole rest of the
   * source for each such item made reading quadratic (seconds for a long nested list).
   */
  private findNear(raw: string, cursor: number): number {
    const end = Math.min(this.source.length, cursor + raw.length * 2 + SEARCH_SLACK);
    const index = this.source.slice(cursor, end).indexOf(raw);
    return index < 0 ? -1 : cursor + index;
  }

  /** Reads block tokens whose raw text starts at `offset` of the source; returns the offset after them. */
  readTokens(tokens: readonly Token[], offset: number): number {
    let cursor = offset;
    for (const token of tokens) {
      const found = token.raw ? this.findNear(token.raw, cursor) : -1;
      const start = found >= 0 ? found : cursor;
      this.readToken(token, start);
      cursor = found >= 0 ? start + token.raw.length : cursor;
    }
    return cursor;
  }

  private readToken(token: Token, offset: number): void {
    const line = this.lineAt(offset);
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading;
        const text = plainInline(heading.tokens);
        if (heading.depth === 1 && this.title === undefined && text !== '') this.title = text;
        this.builder.heading(heading.depth, text);
        return;
      }
      case 'paragraph':
      case 'text': {
        const tokens = (token as Tokens.Paragraph).tokens;
        if (isBadges(tokens)) return;
        const text = plainInline(tokens);
        this.builder.block({ kind: 'paragraph', text, markdown: markdownInline(tokens), line });
        return;
      }
      case 'list':
        if (!isContents(token as Tokens.List)) this.readList(token as Tokens.List, offset, 0);
        return;
      case 'code': {
        const code = token as Tokens.Code;
        const lang = code.lang?.trim().split(/\s+/)[0] || undefined;
        this.builder.block({
          kind: 'code',
          text: code.text,
          markdown: fencedCode(code.text, lang),
          line,
          ...(lang ? { lang } : {}),
        });
        for (const entry of optionEntriesOf(code.text, lang, line)) this.builder.block(entry);
        return;
      }
      case 'table':
        this.readTable(token as Tokens.Table, offset);
        return;
      case 'blockquote':
        this.readQuote(token as Tokens.Blockquote, line);
        return;
      case 'html': {
        // A README's title is often an HTML heading (`<h1 align="center"><img alt="Chalk"></h1>`):
        // it heads what follows as a Markdown heading would. Other HTML blocks are not content.
        // It names the document only when no Markdown H1 does (a site's banner `<h1>Fastify</h1>`
        // above each page's own `# Title` does not).
        const heading = htmlHeading(token.raw);
        if (heading) {
          if (heading.depth === 1 && this.htmlTitle === undefined) this.htmlTitle = heading.text;
          this.builder.heading(heading.depth, heading.text);
        }
        return;
      }
      default:
        // hr, space, link definitions: not content.
        return;
    }
  }

  private readList(list: Tokens.List, offset: number, depth: number): void {
    let cursor = offset;
    list.items.forEach((item, index) => {
      const found = this.findNear(item.raw, cursor);
      const start = found >= 0 ? found : cursor;
      cursor = found >= 0 ? start + item.raw.length : cursor;
      const marker = list.ordered ? `${Number(list.start || 1) + index}.` : '-';
      const indent = '  '.repeat(depth);
      const own = item.tokens.filter((child) => child.type === 'text' || child.type === 'paragraph');
      const inline = own.flatMap((child) => (child as Tokens.Paragraph).tokens ?? []);
      const text = own.map((child) => plainInline((child as Tokens.Paragraph).tokens)).join(' ');
      if (text !== '' && !isBadges(inline)) {
        const markdown = own.map((child) => markdownInline((child as Tokens.Paragraph).tokens)).join(' ');
        const name = leadingName((own[0] as Tokens.Paragraph).tokens);
        this.builder.block({
          kind: 'list-item',
          text,
          markdown: `${indent}${marker} ${markdown}`,
          line: this.lineAt(start),
          ...(name ? { name } : {}),
        });
      }
      for (const child of item.tokens) {
        if (child.type === 'list') this.readList(child as Tokens.List, start, depth + 1);
        else if (child.type !== 'text' && child.type !== 'paragraph') this.readToken(child, start);
      }
    });
  }

  private readTable(table: Tokens.Table, offset: number): void {
    const headers = table.header.map((cell) => plainInline(cell.tokens));
    const firstLine = this.lineAt(offset);
    table.rows.forEach((row, index) => {
      const cells = row.map((cell) => plainInline(cell.tokens));
      const marked = row.map((cell) => markdownInline(cell.tokens));
      const name = cells[0] ?? '';
      if (cells.every((cell) => cell === '')) return;
      const describe = (values: string[]) =>
        values.length === 2
          ? values[1]
          : values
              .slice(1)
              .map((value, column) => (headers[column + 1] ? `${headers[column + 1]}: ${value}` : value))
              .filter((value) => value !== '')
              .join('; ');
      const text = name === '' ? describe(cells) : `${name}: ${describe(cells)}`;
      const markdown = name === '' ? describe(marked) : `${marked[0]}: ${describe(marked)}`;
      this.builder.block({
        kind: 'table-row',
        text,
        markdown,
        line: firstLine + 2 + index,
        ...(name ? { name } : {}),
      });
    });
  }

  private readQuote(quote: Tokens.Blockquote, line: number): void {
    const paragraphs = quote.tokens.filter((child) => child.type === 'paragraph' || child.type === 'text');
    const parts = paragraphs
      .map((child) => (child as Tokens.Paragraph).tokens)
      .map((tokens) => ({ text: plainInline(tokens), markdown: markdownInline(tokens) }))
      .map(({ text, markdown }) => ({
        text: text.replace(/^\[!\w+\]\s*/, ''),
        markdown: markdown.replace(/^\[!\w+\]\s*/, ''),
      }))
      .filter((part) => part.text !== '');
    if (parts.length === 0) return;
    this.builder.block({
      kind: 'quote',
      text: parts.map((part) => part.text).join(' '),
      markdown: parts.map((part) => part.markdown).join('\n\n'),
      line,
    });
  }
}

/** Images and links only (badges, logos), or nothing readable. */
function isBadges(tokens: readonly Token[] | undefined): boolean {
  if (!tokens || tokens.length === 0) return true;
  let images = 0;
  for (const token of tokens) {
    if (token.type === 'image') images++;
    else if (token.type === 'link') {
      const inner = (token as Tokens.Link).tokens;
      if (inner.some((child) => child.type === 'image')) images++;
      else return false;
    } else if (token.type === 'br' || token.type === 'html') continue;
    else if (token.type === 'text' && (token as Tokens.Text).text.trim() === '') continue;
    else return false;
  }
  return images > 0;
}

/** A table of contents: every item is a link into the page (nested lists included). */
function isContents(list: Tokens.List): boolean {
  return (
    list.items.length > 0 &&
    list.items.every((item) =>
      item.tokens.every((child) => {
        if (child.type === 'list') return isContents(child as Tokens.List);
        if (child.type === 'space') return true;
        const inline = (child as Tokens.Paragraph).tokens ?? [];
        const meaningful = inline.filter((token) => !(token.type === 'text' && token.raw.trim() === ''));
        return (
          meaningful.length === 1 &&
          meaningful[0].type === 'link' &&
          (meaningful[0] as Tokens.Link).href.startsWith('#')
        );
      }),
    )
  );
}

/**
 * The heading an HTML block is, when it is one element `<h1>`-`<h6>`: its text, else (a logo only)
 * its images' alt texts.
 */
function htmlHeading(raw: string): { depth: number; text: string } | undefined {
  const element = /^\s*<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>\s*$/i.exec(raw);
  if (!element) return undefined;
  const inner = element[2];
  const text = decodeEntities(inner.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
  const alts = [...inner.matchAll(/<img\b[^>]*\balt\s*=\s*(["'])(.*?)\1/gi)].map((match) => match[2].trim());
  const words = text || decodeEntities(alts.filter(Boolean).join(' ')).trim();
  return words ? { depth: Number(element[1]), text: words } : undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
