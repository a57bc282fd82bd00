import { describe, expect, it } from 'vitest';
import { plainTextOf, readDocument } from '../../lib/documents/index.js';

const PAGE = `<!doctype html>
<html>
<head><title>Returns &amp; refunds</title><style>p { color: red }</style></head>
<body>
<header><nav><a href="/">Home</a> <a href="/help">Help</a></nav></header>
<aside>Related articles: shipping, payments</aside>
<main>
  <h1>Returns &amp; refunds</h1>
  <h2>How do I return an item?</h2>
  <p>Open your <strong>orders</strong> page and choose <em>Return</em>.
     Returns are free within thirty days.</p>
  <ul>
    <li><code>label</code>: a printable return label, sent by mail.</li>
    <li>Drop-off points
      <ul><li>Any post office</li></ul>
    </li>
  </ul>
  <pre><code class="language-bash">curl -X POST https://shop.example/returns
  -d order=123</code></pre>
  <table>
    <thead><tr><th>Item</th><th>Window</th><th>Fee</th></tr></thead>
    <tbody><tr><td>Shoes</td><td>30 days</td><td>none</td></tr></tbody>
  </table>
  <blockquote>Refunds reach your card within five days.</blockquote>
  <dl><dt>Store credit</dt><dd>Given at once, spent anywhere.</dd></dl>
  <script>track('return')</script>
</main>
<footer>Copyright Shop Inc.</footer>
</body>
</html>`;

describe('the HTML reader', () => {
  const document = readDocument({ format: 'html', name: 'returns.html', text: PAGE });
  const blocks = document.sections.flatMap((section) => section.blocks);

  it('reads the main content under its headings, with the page title', () => {
    expect(document.title).toBe('Returns & refunds');
    expect(document.sections.map((section) => section.path)).toEqual([
      ['Returns & refunds', 'How do I return an item?'],
    ]);
    expect(blocks[0]).toMatchObject({
      kind: 'paragraph',
      text: 'Open your orders page and choose Return. Returns are free within thirty days.',
      markdown: 'Open your **orders** page and choose _Return_. Returns are free within thirty days.',
    });
  });

  it('drops navigation, header, footer, aside, scripts and styles', () => {
    const texts = blocks.map((block) => block.text).join('\n');
    expect(texts).not.toMatch(/Home|Related articles|Copyright|track|color/);
  });

  it('keeps list items (named, nested), code whole with its language, table rows, quotes and definitions', () => {
    expect(blocks.map((block) => block.kind)).toEqual([
      'paragraph',
      'list-item',
      'list-item',
      'list-item',
      'code',
      'table-row',
      'quote',
      'list-item',
    ]);
    expect(blocks[1]).toMatchObject({
      name: 'label',
      markdown: '- `label`: a printable return label, sent by mail.',
    });
    expect(blocks[3]).toMatchObject({ text: 'Any post office', markdown: '  - Any post office' });
    expect(blocks[4]).toMatchObject({
      lang: 'bash',
      text: 'curl -X POST https://shop.example/returns\n  -d order=123',
    });
    expect(blocks[5]).toMatchObject({ name: 'Shoes', text: 'Shoes: Window: 30 days; Fee: none' });
    expect(blocks[6].text).toBe('Refunds reach your card within five days.');
    expect(blocks[7]).toMatchObject({
      name: 'Store credit',
      text: 'Store credit: Given at once, spent anywhere.',
    });
  });

  it('names a definition by all the terms above it, and keeps the space between inline elements', () => {
    const page = readDocument({
      format: 'html',
      text:
        '<body><h2>Options</h2><dl><dt><code>-k</code></dt><dt><code>--keep</code>, <code>--no-keep</code></dt>' +
        '<dd>Keep the input files.</dd><dt>-q</dt><dd>Be quiet.</dd></dl>' +
        '<p><b>PRAGMA </b><i>schema.</i><b>auto_vacuum;</b></p></body>',
    });
    const [keep, quiet, syntax] = page.sections[0].blocks;
    expect(keep).toMatchObject({
      name: '-k, --keep, --no-keep',
      text: '-k, --keep, --no-keep: Keep the input files.',
      markdown: '- `-k`, `--keep`, `--no-keep`: Keep the input files.',
    });
    expect(quiet).toMatchObject({ name: '-q', text: '-q: Be quiet.' });
    expect(syntax).toMatchObject({
      text: 'PRAGMA schema.auto_vacuum;',
      markdown: '**PRAGMA** _schema._**auto_vacuum;**',
    });
  });

  it('reads an unnumbered <h> as a block of its own, even inside the paragraph a missing </p> leaves open', () => {
    const page = readDocument({
      format: 'html',
      text:
        '<body><h2>List of settings</h2><p>See also the user_version setting.\n' +
        '<a name="auto_vacuum"></a><h _id=auto_vacuum style="display:none"> auto_vacuum</h><hr>' +
        '<p>Query or set the auto-vacuum status.</p></body>',
    });
    expect(page.sections[0].blocks.map((block) => block.text)).toEqual([
      'See also the user_version setting.',
      'auto_vacuum',
      'Query or set the auto-vacuum status.',
    ]);
  });

  it('leaves out permalink anchors beside headings and terms (Sphinx, MkDocs, Docusaurus)', () => {
    const page = readDocument({
      format: 'html',
      text:
        '<body><h2>Glossary<a class="headerlink" href="#glossary" title="Permalink">¶</a></h2>' +
        '<dl><dt id="term-loader">loader<a class="headerlink" href="#term-loader">¶</a></dt>' +
        '<dd>An object that loads a module.</dd></dl>' +
        '<h2 id="setup"><a href="#setup">#</a> Setup</h2><p>See <a href="#glossary">the glossary</a>.</p></body>',
    });
    expect(page.sections.map((section) => section.path.at(-1))).toEqual(['Glossary', 'Setup']);
    expect(page.sections[0].blocks[0]).toMatchObject({
      name: 'loader',
      text: 'loader: An object that loads a module.',
    });
    // A link into the page with words of its own is text.
    expect(page.sections[1].blocks[0].text).toBe('See the glossary.');
  });

  it("leaves out a manual's navigation: next/previous/up lines and lists of nothing but links", () => {
    // As texinfo writes a node: its "Next: … Up: …" line, then the chapter, then a menu of its sections.
    const page = readDocument({
      format: 'html',
      text:
        '<body><div class="chapter" id="Introduction"><div class="header"><p>Next: ' +
        '<a href="#Definitions" accesskey="n" rel="next">Definitions</a>, Up: <a href="#Top" rel="up">Top</a> ' +
        '[<a href="#SEC_Contents" rel="contents">Contents</a>]</p></div>' +
        '<h2>1 Introduction</h2><p>Bash is the shell of the GNU system; see <a href="#Definitions">Definitions</a>.</p>' +
        '<ul class="mini-toc"><li><a href="#What-is-Bash">What is Bash?</a></li><li><a href="#Shell">What is a shell?</a></li></ul>' +
        '<ul><li><a href="#x">set</a> turns options on and off.</li></ul></div></body>',
    });
    expect(page.sections).toHaveLength(1);
    expect(page.sections[0].blocks.map((block) => block.text)).toEqual([
      'Bash is the shell of the GNU system; see Definitions.',
      'set turns options on and off.',
    ]);
  });

  it('leaves out an index table (entries that are links, letter headings) but keeps a table with links in it', () => {
    const entry = (term: string, section: string) =>
      `<tr><td></td><td><a href="#index-${term}">${term}</a>:</td><td>&nbsp;</td><td><a href="#${section}">${section}</a></td></tr>`;
    const page = readDocument({
      format: 'html',
      text:
        '<body><h2>Concept Index</h2><table class="index-cp"><tr><td></td><th>Index Entry</th><td></td><th>Section</th></tr>' +
        '<tr><th>A</th><td></td></tr>' +
        entry('aliases', 'Aliases') +
        entry('arrays', 'Arrays') +
        '<tr><th>B</th><td></td></tr>' +
        entry('background', 'Job Control') +
        '</table><h2>Limits</h2><table><tr><th>Limit</th><th>Default</th></tr>' +
        '<tr><td><a href="#len">Length of a string</a></td><td>1,000,000,000</td></tr>' +
        '<tr><td><a href="#cols">Number of columns</a></td><td>2000</td></tr></table></body>',
    });
    expect(page.sections.map((section) => section.path.at(-1))).toEqual(['Limits']);
    expect(page.sections[0].blocks.map((block) => block.text)).toEqual([
      'Length of a string: 1,000,000,000',
      'Number of columns: 2000',
    ]);
  });

  it('records the source line of each block', () => {
    const lines = PAGE.split('\n');
    for (const block of blocks) expect(lines[block.line - 1]).toContain(block.text.split(/[\s:]/)[0]);
  });

  it('reads the whole body when there is no <main> or <article>, and gives the model no code', () => {
    const bare = readDocument({
      format: 'html',
      text: '<h2>Hours</h2><p>We open at nine.</p><pre>x = 1</pre>',
    });
    expect(bare.sections).toEqual([
      {
        path: ['Hours'],
        blocks: [
          { kind: 'paragraph', text: 'We open at nine.', markdown: 'We open at nine.', line: 1 },
          { kind: 'code', text: 'x = 1', markdown: '```\nx = 1\n```', line: 1 },
        ],
      },
    ]);
    expect(plainTextOf(bare)).toBe('Hours\n\nWe open at nine.');
  });

  it('leaves out the rows of a navigation table (links only)', () => {
    const page =
      '<body><table><tr><td><a href="a.html">Prev</a></td><td><a href="/">Home</a></td></tr></table>' +
      '<h2>Hours</h2><p>We open at nine.</p></body>';
    const read = readDocument({ format: 'html', text: page });
    expect(read.sections.flatMap((section) => section.blocks).map((block) => block.text)).toEqual([
      'We open at nine.',
    ]);
  });

  it('reads nothing from a page that only redirects to another, and a slow refresh as a page', () => {
    const alias = (content: string) =>
      `<html><head><meta http-equiv="Refresh" content="${content}"><title>Alternate Names</title></head>` +
      '<body><p>The node you are looking for is at <a href="Output-Formats.html">Alternate Names</a>.</p></body></html>';
    expect(readDocument({ format: 'html', text: alias('0; url=Output-Formats.html') }).sections).toEqual([]);
    const slow = readDocument({ format: 'html', text: alias('30; url=Output-Formats.html') });
    expect(plainTextOf(slow)).toContain('The node you are looking for');
  });
});
