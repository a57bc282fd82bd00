import { Parser } from 'htmlparser2';
import { ReadRefused } from './refusal.js';

/**
 * Refuses a document whose elements nest deeper than `maxNesting`, measured without recursion, so
 * the readers (which recurse over the tree) only ever see shallow documents: HTML by its open
 * elements as the parser tracks them (implied and void closes included), Markdown by the block
 * quote and list markers opening a line plus its indentation (two spaces a list level).
 */
export function checkNesting(format: string, text: string, maxNesting: number): void {
  const depth =
    format === 'html' ? htmlDepth(text, maxNesting) : format === 'markdown' ? markdownDepth(text) : 0;
  if (depth > maxNesting) throw new ReadRefused({ limit: 'MAX_NESTING', found: depth, max: maxNesting });
}

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

function markdownDepth(markdown: string): number {
  let deepest = 0;
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
    if (newline < 0) break;
  }
  return deepest;
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
