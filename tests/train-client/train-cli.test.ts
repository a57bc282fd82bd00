import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryAfterMs, sendPart, TrainPartError } from '../../lib/train-client/index.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'train-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `npm run train -- ...args` (its script, with the same Node) and collects what it prints. */
function train(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
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
    child.on('exit', (code) => resolveRun({ code, stdout, stderr }));
  });
}

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

  it('sends the file in parts under the cap, through a tight rate limit, and prints parts, tokens and vocabulary', async () => {
    const run = await train([file, '--url', server.url, '--part-bytes', '1500']);
    expect(run.code, run.stderr).toBe(0);
    const summary = /Trained (\d+) parts in [\d.]+ s: (\d+) tokens, vocabulary (\d+)\./.exec(run.stdout);
    expect(summary, run.stdout).not.toBeNull();
    const [, parts, tokens, vocabulary] = summary!.map(Number);
    expect(parts).toBeGreaterThanOrEqual(5);
    const partLines = run.stderr.match(/^part \d+: [\d.]+ (KB|B), \d+ tokens, vocabulary \d+$/gm) ?? [];
    expect(partLines).toHaveLength(parts!);
    const health = await (await fetch(`${server.url}/api/health`)).json();
    expect(health.vocabSize).toBe(vocabulary);
    const perLine = partLines.map((line) => Number(/(\d+) tokens/.exec(line)![1]));
    expect(perLine.reduce((a, b) => a + b, 0)).toBe(tokens);
  });

  it('says so when the file holds no text', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n\n   \n');
    const run = await train([empty, '--url', server.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Nothing to train');
  });

  it('fails with exit code 2 and the usage on bad arguments, and 1 on a missing file', async () => {
    const none = await train([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: npm run train -- FILE');
    const tooBig = await train([file, '--part-bytes', '9999999']);
    expect(tooBig.code).toBe(2);
    const missing = await train([join(dir, 'nope.txt'), '--url', server.url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read');
  });
});

describe('npm run train against a server that is busy at first', () => {
  const seen: { at: number; key: string | undefined }[] = [];
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const answers = [
      { status: 503, headers: { 'retry-after': '1' }, body: { error: 'busy', code: 'store_unavailable' } },
      { status: 429, headers: { 'retry-after': '1' }, body: { error: 'slow down', code: 'rate_limited' } },
    ];
    const server = createServer(async (req: IncomingMessage, res) => {
      for await (const _ of req);
      seen.push({ at: performance.now(), key: req.headers['idempotency-key'] as string | undefined });
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

  it('honours Retry-After on 503 and 429, resending the same part with the same Idempotency-Key', async () => {
    const file = join(dir, 'small.txt');
    writeFileSync(file, paragraph(1));
    const run = await train([file, '--url', url]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Trained 1 part in');
    expect(run.stdout).toContain('9 tokens, vocabulary 7.');
    expect(run.stderr).toMatch(/HTTP 503, waiting 1\.0 s \(Retry-After\)/);
    expect(run.stderr).toMatch(/HTTP 429, waiting 1\.0 s \(Retry-After\)/);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((request) => request.key)).size).toBe(1);
    expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}-1$/);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(950);
  });
});

describe('sendPart', () => {
  const ok = () => new Response(JSON.stringify({ ok: true, tokens: 3, vocabSize: 2 }), { status: 200 });

  it('backs off exponentially on network errors and then succeeds', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await sendPart('text', {
      url: 'http://127.0.0.1:9/api/train',
      idempotencyKey: 'k',
      fetch: async () => {
        calls++;
        if (calls < 3) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
        return ok();
      },
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(result).toEqual({ tokens: 3, vocabSize: 2 });
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after its attempts, naming the last problem', async () => {
    const error = await sendPart('text', {
      url: 'http://x/api/train',
      idempotencyKey: 'k',
      attempts: 3,
      fetch: async () => new Response('{"error":"down","code":"store_unavailable"}', { status: 503 }),
      sleep: async () => {},
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TrainPartError);
    expect((error as Error).message).toContain('gave up after 3 attempts; last: HTTP 503: down');
  });

  it('does not retry a refused part (400, 413)', async () => {
    let calls = 0;
    const error = await sendPart('text', {
      url: 'http://x/api/train',
      idempotencyKey: 'k',
      fetch: async () => {
        calls++;
        return new Response('{"error":"text is too large","code":"payload_too_large"}', { status: 413 });
      },
    }).catch((caught: unknown) => caught);
    expect(calls).toBe(1);
    expect((error as TrainPartError).status).toBe(413);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
