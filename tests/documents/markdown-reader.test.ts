import { describe, expect, it } from 'vitest';
import { plainTextOf, readDocument } from '../../lib/documents/index.js';

const README = `# bufferkit

[![npm](https://img.shields.io/npm/v/bufferkit.svg)](https://npmjs.com/package/bufferkit) [![ci](https://ci.example/badge.svg)](https://ci.example)

- [Install](#install)
- [Usage](#usage)
  - [concat()](#concat)

<div align="center"><img src="logo.png"></div>

## Install

\`\`\`bash
npm install bufferkit

# then check it
npx bufferkit --version
\`\`\`

## Usage

### API

- \`concat(list)\`: Joins the buffers of \`list\` into a single Buffer object.
  Will reject the returned promise if a buffer is detached.
- **size** - The number of bytes, *never* negative.
  - \`size.max\` The most it may hold.

| Option | Default | Meaning |
|---|---|---|
| \`maxDepth\` | \`1024\` | How deep folders may nest |
| \`strict\` | false | Treat warnings as errors |

> [!NOTE]
> Buffers are **copied**, never shared.
`;

describe('the Markdown reader', () => {
  const document = readDocument({ format: 'markdown', name: 'README.md', text: README });
  const blocks = document.sections.flatMap((section) => section.blocks);

  it('takes the title from the H1 and builds heading paths, a heading with no body merged into the next', () => {
    expect(document).toMatchObject({ format: 'markdown', name: 'README.md', title: 'bufferkit' });
    expect(document.sections.map((section) => section.path)).toEqual([
      ['bufferkit', 'Install'],
      ['bufferkit', 'Usage', 'API'],
    ]);
  });

  it('drops badges, HTML blocks and a table of contents of in-page links', () => {
    const texts = blocks
      .filter((block) => block.kind !== 'code')
      .map((block) => block.text)
      .join('\n');
    expect(texts).not.toMatch(/npm|ci\.example|logo|^Install$|^Usage$/m);
    expect(blocks[0].kind).toBe('code');
  });

  it('keeps a fenced code block whole, blank lines and comments included, with its language', () => {
    expect(blocks[0]).toMatchObject({
      kind: 'code',
      lang: 'bash',
      text: 'npm install bufferkit\n\n# then check it\nnpx bufferkit --version',
      markdown: '```bash\nnpm install bufferkit\n\n# then check it\nnpx bufferkit --version\n```',
    });
  });

  it('keeps a list item with the name it describes, and clean Markdown for replies', () => {
    const concat = blocks.find((block) => block.name === 'concat(list)');
    expect(concat).toMatchObject({
      kind: 'list-item',
      text: 'concat(list): Joins the buffers of list into a single Buffer object. Will reject the returned promise if a buffer is detached.',
      markdown:
        '- `concat(list)`: Joins the buffers of `list` into a single Buffer object. Will reject the returned promise if a buffer is detached.',
    });
    expect(blocks.find((block) => block.name === 'size')?.markdown).toBe(
      '- **size** - The number of bytes, _never_ negative.',
    );
    expect(blocks.find((block) => block.name === 'size.max')?.markdown).toBe(
      '  - `size.max` The most it may hold.',
    );
  });

  it('reads each table row as "name: description" with the header names, and a quote without its marker', () => {
    const rows = blocks.filter((block) => block.kind === 'table-row');
    expect(rows.map((row) => [row.name, row.text])).toEqual([
      ['maxDepth', 'maxDepth: Default: 1024; Meaning: How deep folders may nest'],
      ['strict', 'strict: Default: false; Meaning: Treat warnings as errors'],
    ]);
    expect(rows[0].markdown).toBe('`maxDepth`: Default: `1024`; Meaning: How deep folders may nest');
    const quote = blocks.find((block) => block.kind === 'quote');
    expect(quote).toMatchObject({
      text: 'Buffers are copied, never shared.',
      markdown: 'Buffers are **copied**, never shared.',
    });
  });

  it('gives the model headings and sentences, never code', () => {
    const plain = plainTextOf(document);
    expect(plain).toContain('Install');
    expect(plain).toContain('Will reject the returned promise if a buffer is detached.');
    expect(plain).not.toContain('npm install bufferkit');
    expect(plain).not.toMatch(/[`*|#>]/);
  });

  it('records the line each block starts on', () => {
    const code = blocks[0];
    expect(README.split('\n')[code.line - 1]).toBe('```bash');
    const concat = blocks.find((block) => block.name === 'concat(list)')!;
    expect(README.split('\n')[concat.line - 1]).toMatch(/^- `concat\(list\)`/);
  });

  it('reads a help text shown as a code block into named option entries, keeping the block whole', () => {
    const help = [
      '## Command Line',
      '',
      '```',
      'Usage: bench [opts] URL',
      '',
      '  -c/--connections NUM',
      '        The number of concurrent connections to use. default: 10.',
      '  -d/--duration SEC',
      '        The number of seconds to run. default: 10.',
      '  -m/--method METHOD',
      "        The HTTP method to use. default: 'GET'.",
      '```',
      '',
      '```js',
      "run({ connections: 10, duration: 10, method: 'GET' })",
      '```',
    ].join('\n');
    const read = readDocument({ format: 'markdown', text: help }).sections[0].blocks;
    expect(read.map((block) => [block.kind, block.name, block.line])).toEqual([
      ['code', undefined, 3],
      ['list-item', '-c/--connections NUM', 6],
      ['list-item', '-d/--duration SEC', 8],
      ['list-item', '-m/--method METHOD', 10],
      ['code', undefined, 14],
    ]);
    expect(read[1]).toMatchObject({
      text: '-c/--connections NUM: The number of concurrent connections to use. default: 10.',
      markdown: '- `-c/--connections NUM`: The number of concurrent connections to use. default: 10.',
    });
  });

  it("reads a program's list of its own commands in a code block as named entries, but not a query's output", () => {
    const doc = [
      '## Commands',
      '',
      '```',
      'ledger> .help',
      '.close ?NAME?        Close the book NAME, or the open one',
      '.export FILE         Write every entry to FILE as CSV',
      '.undo                Take back the last change',
      '```',
      '',
      '```',
      'ledger> select name, age, city from people;',
      'alice     30     paris',
      'bob       41     lyon',
      'carol     25     nice',
      '```',
    ].join('\n');
    const read = readDocument({ format: 'markdown', text: doc }).sections[0].blocks;
    expect(read.map((block) => [block.kind, block.name])).toEqual([
      ['code', undefined],
      ['list-item', '.close ?NAME?'],
      ['list-item', '.export FILE'],
      ['list-item', '.undo'],
      ['code', undefined],
    ]);
    expect(read[2].markdown).toBe('- `.export FILE`: Write every entry to FILE as CSV');
  });

  it('reads an HTML heading block as a heading: its text, or the alt text of its logo; a Markdown H1 stays the title', () => {
    const readmes = [
      '# first-tool',
      '',
      'First tool text.',
      '',
      '<h1 align="center">',
      '\t<br>',
      '\t<img width="320" src="media/logo.svg" alt="Chalk">',
      '</h1>',
      '',
      '> Terminal string styling done right',
      '',
      '## Install',
      '',
      'Run npm install chalk.',
      '',
      '<div align="center"><b>Sponsors</b></div>',
      '',
    ].join('\n');
    const { title, sections } = readDocument({ format: 'markdown', text: readmes });
    expect(title).toBe('first-tool');
    expect(sections.map((section) => section.path)).toEqual([
      ['first-tool'],
      ['Chalk'],
      ['Chalk', 'Install'],
    ]);
    const banner = readDocument({
      format: 'markdown',
      text: '<h1 align="center">Fastify &amp; friends</h1>\n\n## Reply\n\nThe reply object.\n',
    });
    expect(banner.title).toBe('Fastify & friends');
    expect(banner.sections[0].path).toEqual(['Fastify & friends', 'Reply']);
  });
});
