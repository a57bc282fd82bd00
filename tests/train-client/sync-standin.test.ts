/**
 * `npm run train` as a folder sync, end to end against the stand-in of the documents contract
 * (tests/support/train-standin.ts): to move onto the real server once it lists, replaces and
 * deletes documents.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTrain, spawnTrain } from '../support/train-cli.js';
import { STANDIN_OWNER, startTrainStandIn, type TrainStandIn } from '../support/train-standin.js';

const OWNER = { OWNER_EMAIL: STANDIN_OWNER.email, ADMIN_TOKEN: STANDIN_OWNER.token };
const scratch = mkdtempSync(join(tmpdir(), 'train-sync-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folderCount = 0;
/** A fresh folder named `docs` (inside its own parent) holding the given files. */
function docsFolder(files: Record<string, string | Uint8Array>): string {
  const folder = join(scratch, `run-${++folderCount}`, 'docs');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  return folder;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const posts = (standIn: TrainStandIn) => standIn.requests.filter((request) => request.path === '/api/train');
const summaryOf = (stdout: string) => /Summary: (.*) in/.exec(stdout)?.[1];

let standIn: TrainStandIn;
beforeEach(async () => {
  standIn = await startTrainStandIn();
});
afterEach(() => standIn.close());

describe('npm run train -- DIR (documents with ids)', () => {
  const files = {
    'guide/intro.md': '# Intro\n\nThe port is 7311.\n',
    'faq.txt': 'Delivery takes two days.\n',
    'page.mdx': "import Tabs from './tabs'\n\n# Page\n\nOtters hold hands.\n",
  };

  it('names each document PREFIX/path/in/folder, with the folder name as the default prefix', async () => {
    const folder = docsFolder(files);
    const run = await runTrain([folder, '--url', standIn.url]);
    expect(run.code, run.stderr).toBe(0);
    expect([...standIn.documents.keys()].sort()).toEqual([
      'docs/faq.txt',
      'docs/guide/intro.md',
      'docs/page.mdx',
    ]);
    expect(standIn.documents.get('docs/guide/intro.md')).toMatchObject({
      format: 'markdown',
      sha256: sha256(files['guide/intro.md']),
    });
    expect(summaryOf(run.stdout)).toBe('3 trained, 0 replaced, 0 unchanged, 0 pruned, 0 skipped, 0 failed');
  });

  it('trains .mdx as Markdown without its import and export lines', async () => {
    const run = await runTrain([docsFolder(files), '--url', standIn.url]);
    expect(run.code, run.stderr).toBe(0);
    const page = standIn.documents.get('docs/page.mdx')!;
    expect(page.format).toBe('markdown');
    expect(page.text).not.toContain('import');
    expect(page.text).toContain('Otters hold hands.');
  });

  it('uses --prefix, one per folder in order, and gives a lone file its own name as id', async () => {
    const one = docsFolder({ 'a.md': '# A\n\nAlpha.\n' });
    const two = docsFolder({ 'a.md': '# A\n\nBeta.\n' });
    const lone = join(scratch, 'lone-notes.txt');
    writeFileSync(lone, 'A lone file about gamma.\n');
    const run = await runTrain([
      one,
      two,
      lone,
      '--prefix',
      'site-one',
      '--prefix',
      'site-two',
      '--url',
      standIn.url,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect([...standIn.documents.keys()].sort()).toEqual([
      'lone-notes.txt',
      'site-one/a.md',
      'site-two/a.md',
    ]);
  });

  it('refuses two folders with the same base name and no --prefix (exit 2), sending nothing', async () => {
    const one = docsFolder({ 'a.md': '# A\n' });
    const two = docsFolder({ 'b.md': '# B\n' });
    const run = await runTrain([one, two, '--url', standIn.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('would share the prefix "docs"; give each folder its own --prefix');
    expect(standIn.requests).toHaveLength(0);
  });

  it('gives each document its citation url from --source-url ({path} without the extension, {file} with it)', async () => {
    const folder = docsFolder(files);
    const run = await runTrain([
      folder,
      '--url',
      standIn.url,
      '--source-url',
      'https://docs.example.org/{path}?src={file}',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(standIn.documents.get('docs/guide/intro.md')!.url).toBe(
      'https://docs.example.org/guide/intro?src=guide/intro.md',
    );
    expect(standIn.documents.get('docs/faq.txt')!.url).toBe('https://docs.example.org/faq?src=faq.txt');
    const bad = await runTrain([folder, '--url', standIn.url, '--source-url', 'ftp://x/{path}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--source-url must be an http(s) URL template');
  });

  it('sends the owner headers when OWNER_EMAIL and ADMIN_TOKEN are set, or --owner-email and --admin-token', async () => {
    const folder = docsFolder(files);
    const fromEnv = await runTrain([folder, '--url', standIn.url], OWNER);
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(standIn.requests[0]).toMatchObject({ method: 'GET', path: '/api/admin/documents', owner: true });
    writeFileSync(join(folder, 'new.md'), '# New\n\nA new page.\n');
    const fromFlags = await runTrain([
      folder,
      '--url',
      standIn.url,
      '--owner-email',
      STANDIN_OWNER.email,
      '--admin-token',
      STANDIN_OWNER.token,
    ]);
    expect(fromFlags.code, fromFlags.stderr).toBe(0);
    expect(posts(standIn).every((request) => request.owner)).toBe(true);
    const wrong = await runTrain([folder, '--url', standIn.url], { ...OWNER, ADMIN_TOKEN: 'wrong' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('cannot list the service');
    expect(wrong.stderr).toContain('HTTP 403');
  });

  it('stops at the first 401 when the service requires the owner and none is given', async () => {
    await standIn.close();
    standIn = await startTrainStandIn({ trainAccess: 'owner' });
    const run = await runTrain([docsFolder(files), '--url', standIn.url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('training needs owner credentials here');
    expect(posts(standIn)).toHaveLength(1);
  });
});

describe('npm run train, run again', () => {
  const files = {
    'guide/intro.md': '# Intro\n\nThe port is 7311.\n',
    'guide/setup.md': '# Setup\n\nRun the installer.\n',
    'faq.txt': 'Delivery takes two days.\n',
  };

  it('with owner credentials: lists the documents and sends nothing for unchanged files', async () => {
    const folder = docsFolder(files);
    await runTrain([folder, '--url', standIn.url], OWNER);
    const before = posts(standIn).length;
    const again = await runTrain([folder, '--url', standIn.url], OWNER);
    expect(again.code, again.stderr).toBe(0);
    expect(posts(standIn).length).toBe(before);
    expect(summaryOf(again.stdout)).toBe('0 trained, 0 replaced, 3 unchanged, 0 pruned, 0 skipped, 0 failed');
  });

  it('without credentials: sends each file and takes the answer unchanged, learning nothing twice', async () => {
    const folder = docsFolder(files);
    await runTrain([folder, '--url', standIn.url]);
    const again = await runTrain([folder, '--url', standIn.url]);
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stdout)).toBe('0 trained, 0 replaced, 3 unchanged, 0 pruned, 0 skipped, 0 failed');
    expect([...standIn.learnt.values()]).toEqual([1, 1, 1]);
  });

  it('sends a large file in parts with one id and the whole file hash, and stops after part 1 when it is unchanged', async () => {
    const big = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} says the river runs to the sea.`).join(
      '\n\n',
    );
    const folder = docsFolder({ 'big.txt': big });
    const first = await runTrain([folder, '--url', standIn.url, '--part-bytes', '300']);
    expect(first.code, first.stderr).toBe(0);
    const sent = posts(standIn);
    expect(sent.length).toBeGreaterThan(3);
    expect(sent.map((request) => request.part)).toEqual(sent.map((_, index) => index + 1));
    expect(standIn.documents.get('docs/big.txt')!.sha256).toBe(sha256(big));
    expect(standIn.learnt.get('docs/big.txt')).toBe(1);
    expect(first.stderr).toMatch(/part 1 of \d+: .*pending/);

    const again = await runTrain([folder, '--url', standIn.url, '--part-bytes', '300']);
    expect(again.code, again.stderr).toBe(0);
    expect(posts(standIn).length).toBe(sent.length + 1);
    expect(summaryOf(again.stdout)).toContain('1 unchanged');
  });

  it('replaces an edited file, and --prune deletes the documents whose files are gone (renamed or deleted)', async () => {
    const folder = docsFolder(files);
    await runTrain([folder, '--url', standIn.url], OWNER);
    writeFileSync(join(folder, 'guide/intro.md'), '# Intro\n\nThe port is 9422.\n');
    renameSync(join(folder, 'guide/setup.md'), join(folder, 'guide/install.md'));
    rmSync(join(folder, 'faq.txt'));
    standIn.documents.set('other/kept.md', {
      ...standIn.documents.get('docs/guide/intro.md')!,
      id: 'other/kept.md',
    });

    const run = await runTrain([folder, '--url', standIn.url, '--prune'], OWNER);
    expect(run.code, run.stderr).toBe(0);
    expect(summaryOf(run.stdout)).toBe('1 trained, 1 replaced, 0 unchanged, 2 pruned, 0 skipped, 0 failed');
    expect(run.stderr).toContain('pruned docs/faq.txt');
    expect(run.stderr).toContain('pruned docs/guide/setup.md');
    expect([...standIn.documents.keys()].sort()).toEqual([
      'docs/guide/install.md',
      'docs/guide/intro.md',
      'other/kept.md',
    ]);
    expect(standIn.documents.get('docs/guide/intro.md')!.text).toContain('9422');
  });

  it('pages through the document list (nextCursor) before deciding what is unchanged', async () => {
    await standIn.close();
    standIn = await startTrainStandIn({ maxPage: 2 });
    const folder = docsFolder({ ...files, 'more/one.md': '# One\n', 'more/two.md': '# Two\n' });
    await runTrain([folder, '--url', standIn.url], OWNER);
    const before = standIn.requests.length;
    const again = await runTrain([folder, '--url', standIn.url], OWNER);
    expect(summaryOf(again.stdout)).toBe('0 trained, 0 replaced, 5 unchanged, 0 pruned, 0 skipped, 0 failed');
    const requests = standIn.requests.slice(before);
    expect(requests.map(({ method }) => method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('keeps UTF-8 file names in ids, and fails a file whose id would pass 200 characters', async () => {
    const long = `${'x'.repeat(200)}.md`;
    const folder = docsFolder({ 'ünï©ødé-名前.md': '# Names\n\nUnicode names.\n', [long]: '# Long\n' });
    const run = await runTrain([folder, '--url', standIn.url]);
    expect(run.code).toBe(1);
    expect([...standIn.documents.keys()]).toEqual(['docs/ünï©ødé-名前.md']);
    expect(run.stdout).toContain(`failed: docs/${long}: its document id is longer than 200 characters`);
  });

  it('--prune without owner credentials is a usage error (exit 2) that sends nothing', async () => {
    const run = await runTrain([docsFolder(files), '--url', standIn.url, '--prune']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--prune needs owner credentials');
    expect(standIn.requests).toHaveLength(0);
  });

  it('--dry-run prints what would change and changes nothing', async () => {
    const folder = docsFolder(files);
    await runTrain([folder, '--url', standIn.url], OWNER);
    writeFileSync(join(folder, 'guide/intro.md'), '# Intro\n\nThe port is 9422.\n');
    writeFileSync(join(folder, 'new.md'), '# New\n');
    rmSync(join(folder, 'faq.txt'));
    const requestsBefore = standIn.requests.length;
    const snapshot = JSON.stringify([...standIn.documents.entries()]);

    const run = await runTrain([folder, '--url', standIn.url, '--prune', '--dry-run'], OWNER);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('would replace docs/guide/intro.md');
    expect(run.stderr).toContain('would train docs/new.md');
    expect(run.stderr).toContain('unchanged docs/guide/setup.md');
    expect(run.stderr).toContain('would prune docs/faq.txt');
    expect(run.stdout).toContain(
      'Dry run, nothing changed; would be: 1 trained, 1 replaced, 1 unchanged, 1 pruned, 0 skipped, 0 failed.',
    );
    expect(standIn.requests.slice(requestsBefore).every((request) => request.method === 'GET')).toBe(true);
    expect(JSON.stringify([...standIn.documents.entries()])).toBe(snapshot);
  });

  it('--dry-run without owner credentials says what it would send, sending nothing', async () => {
    const run = await runTrain([docsFolder(files), '--url', standIn.url, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('would send docs/faq.txt');
    expect(run.stdout).toContain(
      'Dry run, nothing changed; would send 3 files (without owner credentials the CLI cannot tell which changed), 0 skipped, 0 failed.',
    );
    expect(standIn.requests).toHaveLength(0);
  });

  it('--include and --exclude (repeatable globs) choose the files, and --prune keeps excluded files that still exist', async () => {
    const folder = docsFolder({ ...files, 'drafts/wip.md': '# WIP\n', 'img/logo.html': '<p>logo</p>' });
    const run = await runTrain(
      [
        folder,
        '--url',
        standIn.url,
        '--include',
        '*.md',
        '--include',
        'faq.txt',
        '--exclude',
        'drafts/**',
        '--prune',
      ],
      OWNER,
    );
    expect(run.code, run.stderr).toBe(0);
    expect([...standIn.documents.keys()].sort()).toEqual([
      'docs/faq.txt',
      'docs/guide/intro.md',
      'docs/guide/setup.md',
    ]);
    const narrower = await runTrain([folder, '--url', standIn.url, '--exclude', 'faq.txt', '--prune'], OWNER);
    expect(narrower.code, narrower.stderr).toBe(0);
    expect(standIn.documents.has('docs/faq.txt')).toBe(true);
  });
});

describe('npm run train when files or the service misbehave', () => {
  it('waits out 409 train_in_progress (Retry-After) and retries the same document', async () => {
    const folder = docsFolder({ 'a.md': '# A\n\nAlpha.\n' });
    standIn.busy.set('docs/a.md', 2);
    const run = await runTrain([folder, '--url', standIn.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/409 train_in_progress\), waiting 1\.0 s/g)).toHaveLength(2);
    expect(standIn.learnt.get('docs/a.md')).toBe(1);
  });

  it('fails a file on 422 idempotency_conflict without retrying, goes on, lists it and exits 1', async () => {
    const folder = docsFolder({ 'a.md': '# A\n\nAlpha.\n', 'b.md': '# B\n\nBeta.\n' });
    standIn.conflicting.add('docs/a.md');
    const run = await runTrain([folder, '--url', standIn.url]);
    expect(run.code).toBe(1);
    expect(posts(standIn).filter((request) => request.documentId === 'docs/a.md')).toHaveLength(1);
    expect(standIn.documents.has('docs/b.md')).toBe(true);
    expect(run.stdout).toMatch(/^failed: docs\/a\.md: HTTP 422: /m);
    expect(summaryOf(run.stdout)).toBe('1 trained, 0 replaced, 0 unchanged, 0 pruned, 0 skipped, 1 failed');
  });

  it('retries a 500 at most twice, quickly, then reports the file and goes on', async () => {
    const folder = docsFolder({
      'a.md': '# A\n\nAlpha.\n',
      'b.md': '# B\n\nBeta.\n',
      'c.md': '# C\n\nGamma.\n',
    });
    standIn.failing.set('docs/a.md', 2);
    standIn.failing.set('docs/b.md', 10);
    const started = performance.now();
    const run = await runTrain([folder, '--url', standIn.url]);
    expect(run.code).toBe(1);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(posts(standIn).filter((request) => request.documentId === 'docs/b.md')).toHaveLength(3);
    expect(run.stdout).toContain('failed: docs/b.md: gave up after 3 attempts; last: HTTP 500');
    expect(summaryOf(run.stdout)).toBe('2 trained, 0 replaced, 0 unchanged, 0 pruned, 0 skipped, 1 failed');
  });

  it('refuses binary and invalid UTF-8 files, naming each, and trains the rest', async () => {
    const folder = docsFolder({
      'good.txt': 'Plain words.\n',
      'nul.txt': new Uint8Array([0x61, 0x62, 0x00, 0x63]),
      'latin1.md': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x61, 0x75]),
    });
    const run = await runTrain([folder, '--url', standIn.url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('skipped docs/nul.txt: binary, not text: a NUL byte at byte 2');
    expect(run.stderr).toContain(
      'skipped docs/latin1.md: not UTF-8 text: an invalid byte sequence at byte 3',
    );
    expect([...standIn.documents.keys()]).toEqual(['docs/good.txt']);
    expect(summaryOf(run.stdout)).toBe('1 trained, 0 replaced, 0 unchanged, 0 pruned, 2 skipped, 0 failed');
  });
});

describe('npm run train killed with kill -9 and run again', () => {
  const paragraphs = (tag: string, n: number) =>
    Array.from({ length: n }, (_, i) => `Paragraph ${i} of ${tag} tells about the harbour.`).join('\n\n');
  const files = {
    'a.md': '# A\n\nAlpha.\n',
    'b.txt': paragraphs('b', 30),
    'c.md': '# C\n\nGamma.\n',
    'd.txt': paragraphs('d', 30),
    'e.md': '# E\n\nEpsilon.\n',
  };

  for (const [label, env] of [
    ['with owner credentials', OWNER],
    ['without credentials', {}],
  ] as const) {
    for (const killAt of [2, 5]) {
      it(`${label}: killed while request ${killAt} is being answered, the re-run learns each document exactly once`, async () => {
        const folder = docsFolder(files);
        const args = [folder, '--url', standIn.url, '--part-bytes', '400'];
        const first = spawnTrain(args, env);
        let trainRequests = 0;
        standIn.onTrain = () => {
          if (++trainRequests === killAt) first.child.kill('SIGKILL');
          return undefined;
        };
        const killed = await first.done;
        expect(killed.signal).toBe('SIGKILL');
        standIn.onTrain = undefined;

        const again = await runTrain(args, env);
        expect(again.code, again.stderr).toBe(0);
        expect([...standIn.documents.keys()].sort()).toEqual(
          Object.keys(files).map((name) => `docs/${name}`),
        );
        for (const [name, text] of Object.entries(files)) {
          expect(standIn.learnt.get(`docs/${name}`), name).toBe(1);
          expect(standIn.documents.get(`docs/${name}`)!.sha256).toBe(sha256(text));
        }
        const third = await runTrain(args, env);
        expect(summaryOf(third.stdout)).toBe(
          '0 trained, 0 replaced, 5 unchanged, 0 pruned, 0 skipped, 0 failed',
        );
      });
    }
  }
});

describe('npm run train stopped with Ctrl-C', () => {
  it('exits 130 saying how to finish, and the same command finishes without learning anything twice', async () => {
    const files = { 'a.md': '# A\n\nAlpha.\n', 'b.md': '# B\n\nBeta.\n', 'c.md': '# C\n\nGamma.\n' };
    const folder = docsFolder(files);
    const first = spawnTrain([folder, '--url', standIn.url]);
    standIn.onTrain = (seen) => {
      if (seen.documentId === 'docs/b.md') first.child.kill('SIGINT');
      return undefined;
    };
    const stopped = await first.done;
    standIn.onTrain = undefined;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('train: interrupted. Run the same command again to finish');
    const again = await runTrain([folder, '--url', standIn.url]);
    expect(again.code, again.stderr).toBe(0);
    expect([...standIn.learnt.entries()].sort()).toEqual([
      ['docs/a.md', 1],
      ['docs/b.md', 1],
      ['docs/c.md', 1],
    ]);
  });
});

describe('npm run train when the service is killed mid-run and restarts', () => {
  it('retries through the restart and the stale claim (409 train_in_progress), learning each document once', async () => {
    const files = {
      'a.md': '# A\n\nAlpha.\n',
      'b.txt': Array.from({ length: 30 }, (_, i) => `Paragraph ${i} tells about the lighthouse.`).join(
        '\n\n',
      ),
      'c.md': '# C\n\nGamma.\n',
    };
    const folder = docsFolder(files);
    const port = Number(new URL(standIn.url).port);
    const run = spawnTrain([folder, '--url', standIn.url, '--part-bytes', '400']);
    let trainRequests = 0;
    standIn.onTrain = (seen) => {
      if (++trainRequests !== 3) return undefined;
      const killed = standIn;
      killed.onTrain = undefined;
      void killed
        .close()
        .then(() => startTrainStandIn({ port, after: killed }))
        .then((restarted) => {
          // The claim the killed server held on this document has not expired yet.
          restarted.busy.set(seen.documentId!, 2);
          standIn = restarted;
        });
      return 'crash';
    };
    const result = await run.done;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /docs\/b\.txt: (the connection closed without an answer|ECONNRESET|ECONNREFUSED)[^\n]*, retrying in 1\.0 s/,
    );
    expect(result.stderr).toContain(
      'docs/b.txt: still being trained elsewhere (409 train_in_progress), waiting 1.0 s',
    );
    expect(summaryOf(result.stdout)).toBe(
      '3 trained, 0 replaced, 0 unchanged, 0 pruned, 0 skipped, 0 failed',
    );
    for (const [name, text] of Object.entries(files)) {
      expect(standIn.learnt.get(`docs/${name}`), name).toBe(1);
      expect(standIn.documents.get(`docs/${name}`)!.sha256).toBe(sha256(text));
    }
  });
});
