/**
 * `npm run train` on folders against the real server (`npm start` on the embedded store): which
 * files are read, how each is sent, what is refused. What the server stores is read back from the
 * store after it stops.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChunk, type StoredDocument } from '../../lib/documents/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import { splitMarkdownForTraining } from '../../lib/train-client/index.js';
import { trainingKeys } from '../../lib/training/index.js';
import { tinyPdf } from '../documents/tiny-pdf.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { runTrain } from '../support/train-cli.js';

/** Trains on a fresh server, stops it and returns the documents its store holds. */
async function trainAndRead(
  args: string[],
): Promise<{ run: Awaited<ReturnType<typeof runTrain>>; stored: StoredDocument[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'train-folder-data-'));
  let server: RunningServer | undefined;
  try {
    server = await startLocalServer({ DATA_DIR: dataDir, STARTER_TEXT: 'off' });
    const run = await runTrain([...args, '--url', server.url]);
    await server.stop();
    const store = createEmbeddedStore({ dataDir });
    const stored = (await store.lrange(trainingKeys.chunks, 0, -1)).map(decodeChunk);
    await store.close();
    return { run, stored };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const ASCIIDOC_GUIDE = `= Setup Guide
:toc:
:icons: font

== Install

Run the *installer* and open port 7311.

[source,sh]
----
./install --port 7311
----
`;

describe('npm run train on a folder (real server)', () => {
  const docs = mkdtempSync(join(tmpdir(), 'train-folder-'));
  const folder = basename(docs);
  beforeAll(() => {
    mkdirSync(join(docs, 'guide'));
    mkdirSync(join(docs, 'node_modules'));
    mkdirSync(join(docs, 'drafts'));
    writeFileSync(join(docs, 'README.md'), '# Shop\n\n## Returns\n\nReturns are free within thirty days.\n');
    writeFileSync(join(docs, 'guide', 'hours.html'), '<main><h2>Hours</h2><p>We open at nine.</p></main>');
    writeFileSync(join(docs, 'guide', 'faq.txt'), 'Delivery takes two days.\n');
    writeFileSync(join(docs, 'guide', 'manual.pdf'), tinyPdf([['The manual says hello.']]));
    writeFileSync(join(docs, 'guide', 'page.mdx'), "import X from './x'\n\n# Page\n\nOtters hold hands.\n");
    writeFileSync(join(docs, 'guide', 'setup.adoc'), ASCIIDOC_GUIDE);
    writeFileSync(join(docs, 'guide', 'setup-copy.txt'), ASCIIDOC_GUIDE);
    writeFileSync(join(docs, 'guide', 'logo.png'), 'not a document');
    writeFileSync(join(docs, 'guide', 'blob.txt'), new Uint8Array([0x47, 0x49, 0x46, 0x00, 0x01, 0x02]));
    writeFileSync(join(docs, 'guide', 'latin1.txt'), new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(join(docs, 'drafts', 'wip.md'), '# Work in progress\n\nA draft about the garden.\n');
    writeFileSync(join(docs, 'node_modules', 'skip.md'), '# Not mine\n');
  });
  afterAll(() => rmSync(docs, { recursive: true, force: true }));

  it('trains every known kind under it with its format and its id as name, refusing binary and invalid UTF-8', async () => {
    const { run, stored } = await trainAndRead([docs]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /Summary: 8 trained, 0 replaced, 0 unchanged, 0 pruned, 2 skipped, 0 failed in/,
    );
    expect(run.stderr).toContain(`skipped ${folder}/guide/blob.txt: binary, not text: a NUL byte at byte 3`);
    expect(run.stderr).toContain(
      `skipped ${folder}/guide/latin1.txt: not UTF-8 text: an invalid byte sequence at byte 3`,
    );
    expect(stored.map(({ format, name }) => `${format} ${name}`)).toEqual([
      `markdown ${folder}/drafts/wip.md`,
      `text ${folder}/guide/faq.txt`,
      `html ${folder}/guide/hours.html`,
      `pdf ${folder}/guide/manual.pdf`,
      `markdown ${folder}/guide/page.mdx`,
      `html ${folder}/guide/setup-copy.txt`,
      `html ${folder}/guide/setup.adoc`,
      `markdown ${folder}/README.md`,
    ]);
    const mdx = stored.find((document) => document.name?.endsWith('page.mdx'))!;
    expect(mdx.text).not.toContain('import X');
  });

  it('converts AsciiDoc (.adoc, and .txt that is AsciiDoc) to HTML, never sending raw markup', async () => {
    const { run, stored } = await trainAndRead([docs, '--include', 'setup*']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`trained ${folder}/guide/setup.adoc (converted from AsciiDoc to HTML)`);
    expect(stored).toHaveLength(2);
    for (const document of stored) {
      expect(document.format).toBe('html');
      expect(document.text).toContain('<h1>Setup Guide</h1>');
      expect(document.text).toContain('<strong>installer</strong>');
      expect(document.text).not.toMatch(/^(:toc:|== Install|----)$/m);
    }
  });

  it('keeps a plain .txt that only starts with "= " as plain text', async () => {
    const notes = mkdtempSync(join(tmpdir(), 'train-notes-'));
    writeFileSync(join(notes, 'sum.txt'), '= 42 is the answer\n\nNothing else here.\n');
    const { run, stored } = await trainAndRead([notes]);
    rmSync(notes, { recursive: true, force: true });
    expect(run.code, run.stderr).toBe(0);
    expect(stored.map(({ format }) => format)).toEqual(['text']);
  });

  it('--include and --exclude choose files by name or by path', async () => {
    const { run, stored } = await trainAndRead([
      docs,
      '--include',
      '*.md',
      '--include',
      'guide/*.html',
      '--exclude',
      'drafts/**',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(stored.map(({ name }) => name)).toEqual([`${folder}/guide/hours.html`, `${folder}/README.md`]);
  });
});

describe('npm run train with a file the real server refuses', () => {
  it("reports that file as failed with the server's reason, trains the rest and exits 1", async () => {
    const docs = mkdtempSync(join(tmpdir(), 'train-refused-'));
    writeFileSync(join(docs, 'a.md'), '# Alpha\n\nAlpha opens at nine.\n');
    writeFileSync(join(docs, 'b.md'), '# Work in progress\n');
    writeFileSync(join(docs, 'c.md'), '# Gamma\n\nGamma closes at five.\n');
    const { run, stored } = await trainAndRead([docs]);
    rmSync(docs, { recursive: true, force: true });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^failed: ${basename(docs)}/b\\.md: HTTP 400: `, 'm'));
    expect(run.stdout).toContain('2 trained, 0 replaced, 0 unchanged, 0 pruned, 0 skipped, 1 failed');
    expect(stored.map(({ name }) => name)).toEqual([`${basename(docs)}/a.md`, `${basename(docs)}/c.md`]);
  });
});

describe('splitMarkdownForTraining', () => {
  it('cuts before headings, never inside a fenced block, each part under the limit', () => {
    const section = (n: number) =>
      `## Part ${n}\n\nSome words about part ${n}.\n\n\`\`\`\n# not a heading ${n}\n\`\`\``;
    const text = Array.from({ length: 6 }, (_, n) => section(n)).join('\n\n');
    const parts = splitMarkdownForTraining(text, 120);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(120);
      expect(part.startsWith('## Part')).toBe(true);
      expect((part.match(/```/g) ?? []).length % 2).toBe(0);
    }
    expect(parts.join('\n').replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' '));
  });
});
