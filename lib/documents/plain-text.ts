import { splitSentences } from '../text/index.js';
import type { Block, ParsedDocument } from './types.js';

/**
 * What the n-gram model trains on: heading texts, and the sentences of paragraphs, lines, list
 * items, table rows and quotes, one a line; code is left out. Units are separated by blank lines,
 * so the model reads each as a line of its own; consecutive source lines (a verse a line) stay
 * together, so a plain corpus comes out as it went in.
 */
export function plainTextOf(document: ParsedDocument): string {
  const out: string[] = [];
  let lastPath: string[] = [];
  let lastLine: Block | undefined;
  for (const section of document.sections) {
    const shared = sharedPrefix(lastPath, section.path);
    for (const heading of section.path.slice(shared)) {
      out.push('\n\n', heading);
      lastLine = undefined;
    }
    lastPath = section.path;
    for (const block of section.blocks) {
      if (block.kind === 'code') continue;
      const text = block.text.replace(/\s+/g, ' ').trim();
      if (text === '') continue;
      if (block.kind === 'line') {
        const runsOn = lastLine !== undefined && block.line === lastLine.line + 1;
        out.push(runsOn ? '\n' : '\n\n', text);
        lastLine = block;
        continue;
      }
      lastLine = undefined;
      const sentences = block.kind === 'table-row' ? [text] : splitSentences(text);
      out.push('\n\n', sentences.join('\n'));
    }
  }
  return out.join('').replace(/^\n+/, '');
}

function sharedPrefix(a: string[], b: string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
