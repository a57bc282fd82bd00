import type { Block } from '../types.js';
import { codeSpan } from './inline.js';
import { readTextSections } from './text/index.js';

/** Code blocks that may be a program's help text rather than code. */
const PLAIN_LANGS = new Set(['', 'text', 'txt', 'plain', 'plaintext', 'console', 'help', 'none']);
const OPTION = /^[-+]{1,2}[\w?#@]/;
/**
 * A command's name as listings write it: a word, or one behind the prefix a program gives its own
 * commands (`.schema` in a shell, `:set` in an editor, `\d` in a client, `/join` in a chat).
 */
const COMMAND = /^[.:\\/]?[A-Za-z][\w-]*(?:\s|$)/;
/** Fewer option entries than this is an example command, not a listing. */
const MIN_ENTRIES = 3;
/**
 * Share of the block's lines that command entries (not options) must take: a help listing is
 * little else, while aligned columns inside other text (a query's output) are a few lines of it.
 */
const LISTING_SHARE = 0.6;

/**
 * The options a help text shown as a code block describes (`-c/--connections NUM` with its
 * description indented beneath), as named list items, so a question about one option finds that
 * entry; the code block itself stays whole beside them. Empty for code, or for fewer than three.
 */
export function optionEntriesOf(code: string, lang: string | undefined, firstLine: number): Block[] {
  if (!PLAIN_LANGS.has((lang ?? '').toLowerCase())) return [];
  const blocks = readTextSections(code).flatMap((section) => section.blocks);
  const named = blocks.filter((block) => block.kind === 'list-item' && block.name !== undefined);
  let items = named.filter((item) => OPTION.test(item.name!));
  if (new Set(items.map((item) => item.name)).size < MIN_ENTRIES) {
    // Not options: a listing of commands, when entries are most of what the block says.
    const lines = code.split('\n');
    items = named.filter(
      (item) => COMMAND.test(item.name!) && describes(lines[item.line - 1] ?? '', item.name!),
    );
    // The lines an entry takes: from its own to the next block's (its description's later
    // lines), counted in one pass over the blocks, which come in the order of their lines.
    const kept = new Set(items);
    let taken = 0;
    blocks.forEach((block, i) => {
      if (!kept.has(block)) return;
      const next = blocks[i + 1]?.line ?? lines.length + 1;
      for (let line = block.line; line < next; line++) if (lines[line - 1]?.trim()) taken++;
    });
    const written = lines.filter((line) => line.trim() !== '').length;
    if (new Set(items.map((item) => item.name)).size < MIN_ENTRIES || taken < written * LISTING_SHARE)
      return [];
  }
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

/**
 * A command entry's description is words, not more columns: a query's output set in columns
 * (`alice    30    paris`) has a further run of spaces after its first, and maybe no word at all.
 */
function describes(line: string, name: string): boolean {
  const description = line.trim().slice(name.length).trim();
  return /\p{L}{2,}/u.test(description) && !/\S\s{3,}\S/.test(description) && description.includes(' ');
}
