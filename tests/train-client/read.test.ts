import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractPdfText, readDocument } from '../../lib/documents/index.js';
import {
  looksLikeAsciiDoc,
  mdxAsMarkdown,
  prepareSource,
  SelectionError,
  selectSources,
  sourceUrlOf,
  type TrainSource,
  utf8Bytes,
} from '../../lib/train-client/index.js';
import { tinyPdf } from '../documents/tiny-pdf.js';

const scratch = mkdtempSync(join(tmpdir(), 'train-read-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function sourceOf(
  name: string,
  content: string | Uint8Array,
  kind: TrainSource['kind'] = 'text',
): TrainSource {
  const path = join(scratch, name);
  writeFileSync(path, content);
  return { path, documentId: name, relative: name, kind, bytes: statSync(path).size };
}

async function collect(parts: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe('looksLikeAsciiDoc', () => {
  it('takes a document header followed by attribute entries or AsciiDoc blocks', () => {
    expect(looksLikeAsciiDoc('= Guide\n:toc:\n\nText.')).toBe(true);
    expect(looksLikeAsciiDoc('// a comment\n\n= Guide\nAda Lovelace\n\n== Install\n\nText.')).toBe(true);
    expect(looksLikeAsciiDoc('= Guide\n\n[source,js]\n----\nx()\n----\n')).toBe(true);
    expect(looksLikeAsciiDoc('= Guide\n\ninclude::part.adoc[]\n')).toBe(true);
  });

  it('leaves plain text alone, even one that starts with "= "', () => {
    expect(looksLikeAsciiDoc('= 42 is the answer\n\nNothing else.')).toBe(false);
    expect(looksLikeAsciiDoc('Notes\n\n== not at the start\n:toc:\n')).toBe(false);
    expect(looksLikeAsciiDoc('# Markdown\n\n----\n')).toBe(false);
  });
});

describe('mdxAsMarkdown', () => {
  it('drops top-level import and export lines, keeping those inside fenced code', () => {
    const mdx =
      "import A from './a'\nexport const meta = {}\n\n# Title\n\n```js\nimport B from 'b'\n```\n\nText.";
    expect(mdxAsMarkdown(mdx)).toBe("\n# Title\n\n```js\nimport B from 'b'\n```\n\nText.");
  });
});

describe('sourceUrlOf', () => {
  it('fills {path} without the extension and {file} with it, each segment URL-encoded', () => {
    expect(sourceUrlOf('https://d.example.org/{path}', 'guide/intro.md')).toBe(
      'https://d.example.org/guide/intro',
    );
    expect(sourceUrlOf('https://d.example.org/raw/{file}', 'a b/ü.md')).toBe(
      'https://d.example.org/raw/a%20b/%C3%BC.md',
    );
  });
});

describe('selectSources', () => {
  const root = join(scratch, 'site', 'docs');
  mkdirSync(join(root, 'drafts'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  writeFileSync(join(root, 'a.md'), '# A\n');
  writeFileSync(join(root, 'b.adoc'), '= B\n:toc:\n');
  writeFileSync(join(root, 'c.png'), 'png');
  writeFileSync(join(root, 'drafts', 'd.mdx'), '# D\n');
  writeFileSync(join(root, '.git', 'e.md'), '# E\n');

  it('names documents PREFIX/path, reads known kinds only and skips hidden folders', async () => {
    const { folders, sources } = await selectSources([root]);
    expect(folders).toEqual([{ path: root, prefix: 'docs' }]);
    expect(sources.map(({ documentId, kind }) => `${documentId} ${kind}`)).toEqual([
      'docs/a.md markdown',
      'docs/b.adoc asciidoc',
      'docs/drafts/d.mdx markdown',
    ]);
  });

  it('applies globs with a / to the path and without to the name', async () => {
    const only = await selectSources([root], { include: ['*.md', '*.mdx'], exclude: ['drafts/**'] });
    expect(only.sources.map(({ relative }) => relative)).toEqual(['a.md']);
  });

  it('refuses a --prefix count that does not match the folders, and an empty prefix', async () => {
    await expect(selectSources([root], { prefixes: ['a', 'b'] })).rejects.toBeInstanceOf(SelectionError);
    await expect(selectSources([root], { prefixes: ['/'] })).rejects.toThrow('--prefix "/" must hold');
  });
});

describe('prepareSource', () => {
  it('hashes the bytes sent: the file as it is (byte order mark included)', async () => {
    const text = '\uFEFFHello there.\n';
    const prepared = await prepareSource(sourceOf('bom.txt', text), 1024);
    expect(prepared).toMatchObject({ kind: 'text', format: 'text', parts: 1 });
    if (prepared.kind !== 'text') throw new Error('not text');
    expect(prepared.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(await collect(prepared.textParts())).toEqual([text]);
  });

  it('streams long text: the parts it counts first are the parts it sends, under the limit', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `Line ${i} of a long log about ships.`).join('\n');
    const prepared = await prepareSource(sourceOf('long.txt', text), 4096);
    if (prepared.kind !== 'text') throw new Error(`not text: ${JSON.stringify(prepared)}`);
    const parts = await collect(prepared.textParts());
    expect(parts).toHaveLength(prepared.parts);
    expect(parts.length).toBeGreaterThan(30);
    for (const part of parts) expect(utf8Bytes(part)).toBeLessThanOrEqual(4096);
    expect(prepared.sha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('notices a long file that changed between counting and sending', async () => {
    const source = sourceOf('moving.txt', 'word '.repeat(2000));
    const prepared = await prepareSource(source, 1024);
    if (prepared.kind !== 'text') throw new Error('not text');
    writeFileSync(source.path, 'other '.repeat(2000));
    await expect(collect(prepared.textParts())).rejects.toThrow('the file changed while it was being sent');
  });

  it('names where invalid UTF-8 or a NUL byte is, in short and in streamed files', async () => {
    const bad = (at: number, bytes: number[]) => new Uint8Array([...new Uint8Array(at).fill(0x61), ...bytes]);
    expect(await prepareSource(sourceOf('x1.txt', bad(5, [0xe2, 0x28, 0xa1])), 1024)).toEqual({
      kind: 'skip',
      reason: 'not UTF-8 text: an invalid byte sequence at byte 5',
    });
    expect(await prepareSource(sourceOf('x2.txt', bad(300_000, [0xff])), 1024)).toEqual({
      kind: 'skip',
      reason: 'not UTF-8 text: an invalid byte sequence at byte 300000',
    });
    expect(await prepareSource(sourceOf('x3.txt', bad(300_000, [0x00])), 1024)).toEqual({
      kind: 'skip',
      reason: 'binary, not text: a NUL byte at byte 300000',
    });
    expect(await prepareSource(sourceOf('x4.md', bad(3, [0xe2, 0x82])), 1024)).toEqual({
      kind: 'skip',
      reason: 'not UTF-8 text: an invalid byte sequence at byte 3',
    });
  });

  it('converts AsciiDoc to HTML, and skips AsciiDoc that holds no text', async () => {
    const guide = await prepareSource(
      sourceOf('g.adoc', '= Guide\n:toc:\n\n== Part\n\nSome *bold* words.\n', 'asciidoc'),
      1024,
    );
    expect(guide).toMatchObject({ kind: 'text', format: 'html', notes: ['converted from AsciiDoc to HTML'] });
    if (guide.kind !== 'text') throw new Error('not text');
    const [html] = await collect(guide.textParts());
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toContain('toc');
    expect(await prepareSource(sourceOf('e.adoc', ':toc:\n// nothing\n', 'asciidoc'), 1024)).toEqual({
      kind: 'skip',
      reason: 'AsciiDoc that converts to no text',
    });
  });

  it("skips an HTML page that only redirects to another (a manual's node alias), naming where", async () => {
    const alias =
      '<html><head><meta http-equiv="Refresh" content="0; url=Output-Formats.html#Alternate-Names">' +
      '<title>Alternate Names</title></head><body><p>The node you are looking for is at ' +
      '<a href="Output-Formats.html#Alternate-Names">Alternate Names</a>.</p></body></html>';
    expect(await prepareSource(sourceOf('Alternate-Names.html', alias, 'html'), 1024)).toEqual({
      kind: 'skip',
      reason: 'it only redirects to Output-Formats.html#Alternate-Names',
    });
    // A refresh after a while is a page of its own that also reloads: it is read.
    const slow = alias.replace('content="0;', 'content="30;');
    expect(await prepareSource(sourceOf('slow.html', slow, 'html'), 1024)).toMatchObject({ kind: 'text' });
  });

  it('sends a PDF whose text is more than a request takes as that text, in parts, keeping its pages', async () => {
    const pages = Array.from({ length: 6 }, (_, page) => [
      { text: `Part ${page + 1}`, size: 18 },
      `Page ${page + 1} tells how the ferry crosses the lake in fog and in wind.`,
      `Passengers ${['wait', 'board', 'sit', 'stand', 'queue', 'rest'][page]} on the pier until the bell rings twice.`,
    ]);
    const bytes = tinyPdf(pages);
    const source = sourceOf('ferry.pdf', bytes, 'pdf');
    // Under the limit: the file itself, for the service to read.
    expect(await prepareSource(source, 1024)).toMatchObject({ kind: 'file', filename: 'ferry.pdf' });
    // Over it (a limit of 200 bytes of text here, 1 MB on the service): read here, sent as text.
    const prepared = await prepareSource(source, 200, 200);
    expect(prepared).toMatchObject({ kind: 'text', format: 'pdf' });
    if (prepared.kind !== 'text') throw new Error('not text');
    expect(prepared.notes[0]).toMatch(/more than one request takes: read here and sent as text/);
    const parts = await collect(prepared.textParts());
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(utf8Bytes(part)).toBeLessThanOrEqual(200);
    // Put together as the service does, it reads as the service reads the file: the same
    // sections, each block on its page.
    const whole = readDocument({ format: 'pdf', text: parts.join('') });
    const served = readDocument({ format: 'pdf', text: await extractPdfText(new Uint8Array(bytes)) });
    const blocksOf = (document: typeof whole) =>
      document.sections.flatMap((section) =>
        section.blocks.map((block) => [section.path.join(' > '), block.text, block.page]),
      );
    expect(blocksOf(whole)).toEqual(blocksOf(served));
    expect(blocksOf(whole)).toContainEqual([
      'Part 6',
      'Passengers rest on the pier until the bell rings twice.',
      6,
    ]);
  });
});
