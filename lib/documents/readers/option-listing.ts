import type { Block } from '../types.js';
import { codeSpan } from './inline.js';
import { readTextSections } from './text/index.js';

/** Code blocks that may be a program's help text rather than code. */
const PLAIN_LANGS = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'console', 'help', 'none']);
const OPTION = /^[-+]{1,2}[\w?#@]/;
/** Fewer option entries than this is an example command, not a listing. */
const MIN_ENTRIES = 3;

/**
 * The options a help text shown as a code block describes (`-c/--connections NUM` with its
 * description indented beneath), as named list items, so a question about one option finds that
 * entry; the code block itself stays whole beside them. Empty for code, or for fewer than three.
 */
export function optionEntriesOf(code: string, lang: string | undefined, firstLine: number): Block[] {
  if (!PLAIN_LANGS.has((lang ?? '').toLowerCase())) return [];
  const items = readTextSections(code)
    .flatMap((section) => section.blocks)
    .filter((block) => block.kind === 'list-item' && block.name !== undefined && OPTION.test(block.name));
  if (new Set(items.map((item) => item.name)).size < MIN_ENTRIES) return [];
  return items.map((item) => {
    const description = item.text.startsWith(`${item.name}: `)
      ? item.text.slice(item.name!.length + 2)
      : item.text;
    return {
      kind: 'list-item',
      text: item.text,
      markdown: `- ${codeSpan(item.name!)}: ${description}`,
      line: firstLine + item.line,
      name: item.name,
    };
  });
}
