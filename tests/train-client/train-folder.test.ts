import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeChunk } from '../../lib/documents/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import { splitMarkdownForTraining } from '../../lib/train-client/index.js';
import { trainingKeys } from '../../lib/training/index.js';
import { tinyPdf } from '../documents/tiny-pdf.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';

const root = resolve(import.meta.dirname, '../..');

function train(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'scripts/train.ts'), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('npm run train on a folder', () => {
  const docs = mkdtempSync(join(tmpdir(), 'train-folder-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'train-folder-data-'));
  let server: RunningServer;
  beforeAll(async () => {
    mkdirSync(join(docs, 'guide'));
    mkdirSync(join(docs, 'node_modules'));
    writeFileSync(join(docs, 'README.md'), '# Shop\n\n## Returns\n\nReturns are free within thirty days.\n');
    writeFileSync(join(docs, 'guide', 'hours.html'), '<main><h2>Hours</h2><p>We open at nine.</p></main>');
    writeFileSync(join(docs, 'guide', 'faq.txt'), 'Delivery takes two days.\n');
    writeFileSync(join(docs, 'guide', 'manual.pdf'), tinyPdf([['The manual says hello.']]));
    writeFileSync(join(docs, 'guide', 'logo.png'), 'not a document');
    writeFileSync(join(docs, 'node_modules', 'skip.md'), '# Not mine\n');
    server = await startLocalServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(docs, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('trains every .md, .txt, .html and .pdf under it, each with its format and its name in the folder', async () => {
    const run = await train([docs, '--url', server.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Trained 4 parts in [\d.]+ s: \d+ tokens, vocabulary \d+\./);
    await server.stop();
    const store = createEmbeddedStore({ dataDir });
    const chunks = (await store.lrange(trainingKeys.chunks, 0, -1)).map(decodeChunk);
    await store.close();
    const folder = docs.split('/').pop();
    expect(chunks.map(({ format, name }) => `${format} ${name}`)).toEqual([
      `text ${folder}/guide/faq.txt`,
      `html ${folder}/guide/hours.html`,
      `pdf ${folder}/guide/manual.pdf`,
      `markdown ${folder}/README.md`,
    ]);
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
