import { Parser } from 'htmlparser2';
import { ReadRefused } from './refusal.js';

/**
 * Refuses a document whose elements nest deeper than `maxNesting`, measured without recursion, so
 * the readers (which recurse over the tree) only ever see shallow documents: HTML by its open
 * elements as the parser tracks them (implied and void closes included), Markdown by the block
 * quote and list markers opening a line plus its indentation (two spaces a list level).
 */
export function checkNesting(format: string, text: string, maxNesting: number): void {
  if (format === 'html') {
    const depth = htmlDepth(text, maxNesting);
    if (depth > maxNesting) throw new ReadRefused({ limit: 'MAX_NESTING', found: depth, max: maxNesting });
  }
  if (format === 'markdown') {
    const { depth, work } = markdownNesting(text);
    if (depth > maxNesting) throw new ReadRefused({ limit: 'MAX_NESTING', found: depth, max: maxNesting });
    if (work > MARKDOWN_NESTING_WORK) {
      throw new ReadRefused({ limit: 'nesting_work', found: depth, max: maxNesting });
    }
  }
}

/**
 * Markdown's lexer reads a nested container's content again at each level, so its time grows with
 * each line's depth times its length; past this sum (about 2 s of reading, measured with lists 250
 * deep) a document is refused even within MAX_NESTING. An ordinary document sums to about its
 * length times two or three.
 */
const MARKDOWN_NESTING_WORK = 32_000_000;

function htmlDepth(html: string, maxNesting: number): number {
  let depth = 0;
  let deepest = 0;
  const parser = new Parser({
    onopentag() {
      depth++;
      if (depth > deepest) deepest = depth;
      // Past the bound the answer is known; stop feeding the rest.
      if (deepest > maxNesting) parser.pause();
    },
    onclosetag() {
      depth--;
    },
  });
  parser.end(html);
  return deepest;
}

const CONTAINER_MARKER = /^[ \t]*(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;

function markdownNesting(markdown: string): { depth: number; work: number } {
  let deepest = 0;
  let work = 0;
  let fence: string | undefined;
  let start = 0;
  while (start <= markdown.length) {
    const newline = markdown.indexOf('\n', start);
    const end = newline < 0 ? markdown.length : newline;
    const line = markdown.slice(start, end);
    start = end + 1;
    const opening = FENCE.exec(line);
    if (fence !== undefined) {
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (opening) {
      fence = opening[1];
      continue;
    }
    let depth = Math.floor(indentOf(line) / 2);
    let rest = line;
    for (let marker = CONTAINER_MARKER.exec(rest); marker; marker = CONTAINER_MARKER.exec(rest)) {
      depth++;
      rest = rest.slice(marker[0].length);
    }
    if (depth > deepest) deepest = depth;
    work += depth * (line.length + 1);
    if (newline < 0) break;
  }
  return { depth: deepest, work };
}

function indentOf(line: string): number {
  let width = 0;
  for (const character of line) {
    if (character === ' ') width++;
    else if (character === '\t') width += 4 - (width % 4);
    else break;
  }
  return width;
}
