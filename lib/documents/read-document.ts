import { readDialogue } from './readers/dialogue.js';
import { readHtml } from './readers/html.js';
import { readMarkdown } from './readers/markdown.js';
import { readTextSections } from './readers/text/index.js';
import { isVimHelp, readVimHelp } from './readers/vimhelp.js';
import type { ParsedDocument, StoredDocument } from './types.js';

/** Reads a stored document by its format into sections and blocks. */
export function readDocument(document: StoredDocument): ParsedDocument {
  const named = document.name ? { name: document.name } : {};
  switch (document.format) {
    case 'markdown':
      return { format: 'markdown', ...named, ...readMarkdown(document.text) };
    case 'html':
      return { format: 'html', ...named, ...readHtml(document.text) };
    case 'pdf':
      return { format: 'pdf', ...named, sections: readTextSections(document.text, { pages: true }) };
    case 'dialogue':
      return { format: 'dialogue', ...named, sections: dialogueSections(document.text) };
    case 'vimhelp':
      return { format: 'vimhelp', ...named, ...readVimHelp(document.text) };
    default:
      // A help file of Vim sent as plain text (a .txt) says what it is in its modeline.
      if (isVimHelp(document.text)) return { format: 'vimhelp', ...named, ...readVimHelp(document.text) };
      return { format: 'text', ...named, sections: readTextSections(document.text) };
  }
}

/** A dialogue's turns as lines, so the model learns their wording. */
function dialogueSections(text: string): ParsedDocument['sections'] {
  const blocks = readDialogue(text).flatMap((pair, index) => [
    { kind: 'line' as const, text: pair.prompt, line: index * 2 + 1 },
    { kind: 'line' as const, text: pair.reply, line: index * 2 + 2 },
  ]);
  return blocks.length > 0 ? [{ path: [], blocks }] : [];
}
