import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryAfterMs, sendPart, TrainPartError } from '../../lib/train-client/index.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { freePort } from '../support/redis-server.js';
import { runTrain } from '../support/train-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'train-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const paragraph = (i: number) =>
  `Paragraph ${i}: the river ${i % 7 === 0 ? 'of light ' : ''}runs to the sea, and the sea is wide.\nIt carries the ships of morning number ${i}.`;

describe('npm run train against npm start', () => {
  let server: RunningServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'train-cli-data-'));
  const file = join(dir, 'corpus.txt');
  beforeAll(async () => {
    writeFileSync(file, Array.from({ length: 60 }, (_, i) => paragraph(i)).join('\n\n'));
    server = await startLocalServer({
      DATA_DIR: dataDir,
      RATE_LIMIT_REQUESTS: '3',
      RATE_LIMIT_WINDOW_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends a large file as parts of one document under the cap, through a tight rate limit, and prints each part and the summary', async () => {
    const run = await runTrain([file, '--url', server.url, '--part-bytes', '1500']);
    expect(run.code, run.stderr).toBe(0);
    const summary =
      /Summary: 1 trained, 0 replaced, 0 unchanged, 0 pruned, 0 skipped, 0 failed in [\d.]+ s \((\d+) tokens, vocabulary (\d+)\)\./.exec(
        run.stdout,
      );
    expect(summary, run.stdout).not.toBeNull();
    const partLines = run.stderr.match(/^ {2}part \d+ of (\d+): [\d.]+ (KB|B), \w+$/gm) ?? [];
    expect(partLines.length).toBeGreaterThanOrEqual(5);
    expect(partLines[0]).toContain(`of ${partLines.length}:`);
    const health = await (await fetch(`${server.url}/api/health`)).json();
    expect(health.vocabSize).toBe(Number(summary![2]));
  });

  it('skips a file that holds no text, saying so', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n\n   \n');
    const run = await runTrain([empty, '--url', server.url]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('skipped empty.txt: it holds no text');
    expect(run.stdout).toContain('0 trained, 0 replaced, 0 unchanged, 0 pruned, 1 skipped, 0 failed');
  });

  it('refuses a binary file given alone (any name), naming it', async () => {
    const binary = join(dir, 'photo');
    writeFileSync(binary, new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]));
    const run = await runTrain([binary, '--url', server.url]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('skipped photo: binary, not text: a NUL byte at byte 4');
  });

  it('fails with exit code 2 and the usage on bad arguments, and 1 on a missing file', async () => {
    const none = await runTrain([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: npm run train -- PATH');
    const tooBig = await runTrain([file, '--part-bytes', '9999999']);
    expect(tooBig.code).toBe(2);
    const halfOwner = await runTrain([file, '--url', server.url, '--owner-email', 'me@example.org']);
    expect(halfOwner.code).toBe(2);
    expect(halfOwner.stderr).toContain('owner credentials need both the e-mail');
    const missing = await runTrain([join(dir, 'nope.txt'), '--url', server.url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read');
  });
});

describe('npm run train when nothing answers', () => {
  it('says so at once with the URL it tried (--url, TRAIN_URL, else localhost:$PORT), without retrying', async () => {
    const port = await freePort();
    const file = join(dir, 'one.txt');
    writeFileSync(file, 'One line.\n');
    for (const [args, env, tried] of [
      [['--url', `http://127.0.0.1:${port}`], {}, `http://127.0.0.1:${port}/`],
      [[], { TRAIN_URL: `http://127.0.0.1:${port}/base` }, `http://127.0.0.1:${port}/base/`],
      [[], { PORT: String(port) }, `http://localhost:${port}/`],
    ] as const) {
      const run = await runTrain([file, ...args], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`train: nothing answers at ${tried} (ECONNREFUSED)`);
      expect(run.stderr).toContain('--url or TRAIN_URL');
      expect(run.stderr).not.toContain('retrying');
    }
  });
});

describe('npm run train against a server that is busy at first', () => {
  const seen: { at: number; body: Record<string, unknown> }[] = [];
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const answers = [
      { status: 503, headers: { 'retry-after': '1' }, body: { error: 'busy', code: 'store_unavailable' } },
      { status: 429, headers: { 'retry-after': '1' }, body: { error: 'slow down', code: 'rate_limited' } },
    ];
    const server = createServer(async (req: IncomingMessage, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      if (req.url === '/api/health') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
        return;
      }
      seen.push({ at: performance.now(), body: JSON.parse(text) });
      const answer = answers.shift() ?? {
        status: 200,
        headers: {},
        body: { ok: true, tokens: 9, vocabSize: 7 },
      };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((done) => server.close(() => done()));
  });
  afterAll(() => close());

  it('honours Retry-After on 503 and 429, resending the same document with the same id and hash', async () => {
    const file = join(dir, 'small.txt');
    writeFileSync(file, paragraph(1));
    const run = await runTrain([file, '--url', url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Summary: 1 trained');
    expect(run.stdout).toContain('(9 tokens, vocabulary 7).');
    expect(run.stderr).toMatch(/HTTP 503, waiting 1\.0 s \(Retry-After\)/);
    expect(run.stderr).toMatch(/HTTP 429, waiting 1\.0 s \(Retry-After\)/);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map(({ body }) => JSON.stringify(body))).size).toBe(1);
    expect(seen[0]!.body).toMatchObject({
      documentId: 'small.txt',
      name: 'small.txt',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(950);
  });
});

describe('sendPart', () => {
  const ok = () => new Response(JSON.stringify({ ok: true, tokens: 3, vocabSize: 2 }), { status: 200 });
  const base = { url: 'http://127.0.0.1:9/api/train', documentId: 'doc' };

  it('backs off exponentially on network errors and then succeeds', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await sendPart('text', {
      ...base,
      fetch: async () => {
        calls++;
        if (calls < 3) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
        return ok();
      },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(result).toEqual({ status: 'trained', tokens: 3, vocabSize: 2 });
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after its retries, naming the last problem', async () => {
    const error = await sendPart('text', {
      ...base,
      retries: { limited: 2 },
      fetch: async () => new Response('{"error":"down","code":"store_unavailable"}', { status: 503 }),
      sleep: async () => {},
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TrainPartError);
    expect((error as Error).message).toContain('gave up after 3 attempts; last: HTTP 503: down');
  });

  it('waits Retry-After on 409 train_in_progress, and never retries 422 idempotency_conflict', async () => {
    const waits: number[] = [];
    const answers = [
      new Response('{"error":"busy","code":"train_in_progress"}', {
        status: 409,
        headers: { 'retry-after': '2' },
      }),
      new Response('{"error":"other content","code":"idempotency_conflict"}', { status: 422 }),
    ];
    const error = await sendPart('text', {
      ...base,
      fetch: async () => answers.shift()!,
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).catch((caught: unknown) => caught);
    expect(waits).toEqual([2000]);
    expect(error).toMatchObject({ status: 422, code: 'idempotency_conflict' });
    expect(answers).toHaveLength(0);
  });

  it('retries a 500 at most twice, after 0.5 s and 1 s', async () => {
    const waits: number[] = [];
    let calls = 0;
    const error = await sendPart('text', {
      ...base,
      fetch: async () => {
        calls++;
        return new Response('{"error":"oops","code":"internal_error"}', { status: 500 });
      },
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).catch((caught: unknown) => caught);
    expect(calls).toBe(3);
    expect(waits).toEqual([500, 1000]);
    expect((error as Error).message).toContain('HTTP 500: oops');
  });

  it('does not retry a refused part (400, 413)', async () => {
    let calls = 0;
    const error = await sendPart('text', {
      ...base,
      fetch: async () => {
        calls++;
        return new Response('{"error":"text is too large","code":"payload_too_large"}', { status: 413 });
      },
    }).catch((caught: unknown) => caught);
    expect(calls).toBe(1);
    expect((error as TrainPartError).status).toBe(413);
  });

  it('reads the status of a document answer (trained, replaced, unchanged, pending) and sends the document fields', async () => {
    let body: Record<string, unknown> = {};
    const result = await sendPart('text', {
      ...base,
      sourceUrl: 'https://docs.example.org/a',
      sha256: 'f'.repeat(64),
      part: 1,
      parts: 3,
      fetch: async (_url, init) => {
        body = JSON.parse(String(init?.body));
        return new Response('{"documentId":"doc","status":"pending","part":1,"parts":3}', { status: 202 });
      },
    });
    expect(result.status).toBe('pending');
    expect(body).toEqual({
      text: 'text',
      documentId: 'doc',
      url: 'https://docs.example.org/a',
      sha256: 'f'.repeat(64),
      part: 1,
      parts: 3,
    });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
