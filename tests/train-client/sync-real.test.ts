/**
 * `npm run train` as a folder sync against the real server (`npm start`, embedded store): the
 * documents contract of issue 29 end to end. These run once the server has the documents API
 * (api/admin/documents.ts, the docs-sync branch); until then they are skipped, and the stand-in
 * tests (sync-standin.test.ts) cover the same steps.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { runTrain, spawnTrain } from '../support/train-cli.js';

const OWNER = { OWNER_EMAIL: 'owner@example.org', ADMIN_TOKEN: 'a-test-admin-token-0123456789' };
const ownerHeaders = { 'x-owner-email': OWNER.OWNER_EMAIL, authorization: `Bearer ${OWNER.ADMIN_TOKEN}` };
const scratch = mkdtempSync(join(tmpdir(), 'train-sync-real-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
function docsFolder(files: Record<string, string>): string {
  const folder = join(scratch, `run-${++folders}`, 'docs');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  return folder;
}

async function startServer(): Promise<RunningServer & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'train-sync-real-data-'));
  const server = await startLocalServer({ DATA_DIR: dataDir, ...OWNER });
  return Object.assign(server, { dataDir });
}

async function documentsOf(server: RunningServer): Promise<{ id: string; sha256: string; url?: string }[]> {
  const response = await fetch(`${server.url}/api/admin/documents?limit=1000`, { headers: ownerHeaders });
  expect(response.status).toBe(200);
  return ((await response.json()) as { documents: { id: string; sha256: string; url?: string }[] }).documents;
}

async function exportOf(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/api/admin/export`, { headers: ownerHeaders });
  expect(response.status).toBe(200);
  return response.text();
}

const summaryOf = (stdout: string) => /Summary: (.*) in/.exec(stdout)?.[1];
const big = (tag: string) =>
  Array.from({ length: 40 }, (_, i) => `Paragraph ${i} of ${tag} says the ferry leaves at dawn.`).join(
    '\n\n',
  );

describe('npm run train -- DIR against npm start with documents', () => {
  let server: RunningServer & { dataDir: string };
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('trains, skips unchanged files, replaces edited ones and prunes removed ones, and the removed text is gone', async () => {
    const folder = docsFolder({
      'guide/intro.md': '# Intro\n\nThe service listens on port 7311.\n',
      'guide/setup.md': '# Setup\n\nRun the quokka installer.\n',
      'faq.txt': 'Delivery takes two days by narwhal.\n',
      'long.txt': big('long'),
    });
    const args = [
      folder,
      '--url',
      server.url,
      '--part-bytes',
      '500',
      '--source-url',
      'https://docs.example.org/{path}',
    ];
    const first = await runTrain(args, OWNER);
    expect(first.code, first.stderr).toBe(0);
    expect(summaryOf(first.stdout)).toBe('4 trained, 0 replaced, 0 unchanged, 0 pruned, 0 skipped, 0 failed');
    const ids = (await documentsOf(server))
      .map((document) => document.id)
      .filter((id) => id.startsWith('docs/'));
    expect(ids.sort()).toEqual([
      'docs/faq.txt',
      'docs/guide/intro.md',
      'docs/guide/setup.md',
      'docs/long.txt',
    ]);
    expect((await documentsOf(server)).find((document) => document.id === 'docs/guide/intro.md')?.url).toBe(
      'https://docs.example.org/guide/intro',
    );

    const exportBefore = await exportOf(server);
    const again = await runTrain(args, OWNER);
    expect(summaryOf(again.stdout)).toBe('0 trained, 0 replaced, 4 unchanged, 0 pruned, 0 skipped, 0 failed');
    const anonymous = await runTrain(args);
    expect(summaryOf(anonymous.stdout)).toBe(
      '0 trained, 0 replaced, 4 unchanged, 0 pruned, 0 skipped, 0 failed',
    );
    expect(await exportOf(server)).toBe(exportBefore);

    writeFileSync(join(folder, 'guide/intro.md'), '# Intro\n\nThe service listens on port 9422.\n');
    renameSync(join(folder, 'guide/setup.md'), join(folder, 'guide/install.md'));
    rmSync(join(folder, 'faq.txt'));
    const synced = await runTrain([...args, '--prune'], OWNER);
    expect(synced.code, synced.stderr).toBe(0);
    expect(summaryOf(synced.stdout)).toBe(
      '1 trained, 1 replaced, 1 unchanged, 2 pruned, 0 skipped, 0 failed',
    );
    const exported = await exportOf(server);
    expect(exported).toContain('9422');
    expect(exported).not.toContain('7311');
    expect(exported).not.toContain('narwhal');
    expect(exported).toContain('quokka');
  });
});

describe('npm run train killed with kill -9 against npm start', () => {
  it('the re-run leaves the service exactly as one clean run does (the same export)', async () => {
    const folder = docsFolder({
      'a.md': '# A\n\nThe lighthouse keeper is Ada.\n',
      'b.txt': big('b'),
      'c.md': '# C\n\nThe harbour closes at nine.\n',
      'd.txt': big('d'),
    });
    const args = (server: RunningServer) => [folder, '--url', server.url, '--part-bytes', '400'];
    const clean = await startServer();
    const killedOnce = await startServer();
    try {
      const cleanRun = await runTrain(args(clean));
      expect(cleanRun.code, cleanRun.stderr).toBe(0);

      const first = spawnTrain(args(killedOnce));
      first.child.stderr!.on('data', (chunk: Buffer) => {
        if (/part 2 of \d+/.test(String(chunk))) first.child.kill('SIGKILL');
      });
      expect((await first.done).signal).toBe('SIGKILL');
      const rerun = await runTrain(args(killedOnce));
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stdout).toMatch(/[1-9] unchanged/);

      expect(await exportOf(killedOnce)).toBe(await exportOf(clean));
      const ids = (server: RunningServer) =>
        documentsOf(server).then((list) => list.map((d) => `${d.id} ${d.sha256}`).sort());
      expect(await ids(killedOnce)).toEqual(await ids(clean));
    } finally {
      for (const server of [clean, killedOnce]) {
        await server.stop();
        rmSync(server.dataDir, { recursive: true, force: true });
      }
    }
  });
});

describe('npm run train as the owner under the default rate limit', () => {
  it('trains 150 files without one 429 (the owner is not counted by the per-address limit of 60 a minute)', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [
        `page-${i}.md`,
        `# Page ${i}\n\nSentence of page ${i} explains setting number ${i * 13}.\n`,
      ]),
    );
    const folder = docsFolder(files);
    const server = await startServer();
    try {
      const run = await runTrain([folder, '--url', server.url], OWNER);
      expect(run.code, run.stderr).toBe(0);
      expect(summaryOf(run.stdout)).toBe(
        '150 trained, 0 replaced, 0 unchanged, 0 pruned, 0 skipped, 0 failed',
      );
      expect(run.stderr).not.toContain('HTTP 429');
    } finally {
      await server.stop();
      rmSync(server.dataDir, { recursive: true, force: true });
    }
    // 150 Markdown files each read in a worker: a few seconds on a quiet machine, more on a busy one.
  }, 180_000);
});
