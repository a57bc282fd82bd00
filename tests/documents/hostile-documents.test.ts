import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { deepHtml, deepMarkdown, inflateBombPdf, manyPagesPdf, pageTreeDagPdf } from './hostile-files.js';

const dataDir = mkdtempSync(join(tmpdir(), 'hostile-documents-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Resident memory of a process now, in MB. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024);
}

/** A hostile document as the request that carries it. */
type Upload = { file: Buffer | string; filename: string } | { text: string; format: string };

/** Generous bounds (a loaded machine), still far from what the unbounded readers did. */
const ANSWER_WITHIN_MS = 15_000;
const PEAK_ABOVE_BEFORE_MB = 300;
const AFTER_ABOVE_BEFORE_MB = 100;

describe('POST /api/train with hostile documents, against npm start', () => {
  let server: RunningServer;
  const figures: string[] = [];
  beforeAll(async () => {
    server = await startLocalServer({ DATA_DIR: join(dataDir, 'store'), RATE_LIMIT_REQUESTS: '100000' });
    const trained = await fetch(`${server.url}/api/train`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'The narwhal lives in the Arctic Ocean. It has a long tusk.' }),
    });
    expect(trained.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    console.log(`hostile documents (ms, RSS MB before/peak/after):\n${figures.join('\n')}`);
    await server?.stop();
  });

  async function send(upload: Upload): Promise<Response> {
    if ('text' in upload) {
      return fetch(`${server.url}/api/train`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(upload),
      });
    }
    const form = new FormData();
    form.append(
      'file',
      new Blob([typeof upload.file === 'string' ? upload.file : new Uint8Array(upload.file)]),
      upload.filename,
    );
    return fetch(`${server.url}/api/train`, { method: 'POST', body: form });
  }

  /** Sends a hostile document while polling health, and checks time, memory and the trained fact. */
  async function survives(name: string, upload: Upload) {
    const pid = server.child.pid as number;
    const before = rssMb(pid);
    let peak = before;
    let polls = 0;
    let failedPolls = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        peak = Math.max(peak, rssMb(pid));
        const health = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(3000) }).catch(
          () => undefined,
        );
        polls++;
        if (health?.status !== 200) failedPolls++;
        await health?.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const started = Date.now();
    const response = await send(upload);
    const body = (await response.json()) as { code: string; limit?: string; error: string };
    const elapsed = Date.now() - started;
    polling = false;
    await poller;
    peak = Math.max(peak, rssMb(pid));
    const chat = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Where does the narwhal live?' }),
    });
    const reply = (await chat.json()) as { response: string };
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = rssMb(pid);
    figures.push(
      `${name}: ${response.status} ${body.limit ?? body.code} in ${elapsed} ms; RSS ${before}/${peak}/${after}; health ${polls - failedPolls}/${polls}`,
    );
    expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
    expect(peak - before).toBeLessThan(PEAK_ABOVE_BEFORE_MB);
    expect(after - before).toBeLessThan(AFTER_ABOVE_BEFORE_MB);
    expect(failedPolls).toBe(0);
    expect(polls).toBeGreaterThan(0);
    expect(chat.status).toBe(200);
    expect(reply.response).toMatch(/Arctic/);
    return { status: response.status, body };
  }

  it('refuses a 2.5 KB page tree claiming 2^20 pages with 413 MAX_PDF_PAGES, before reading a page', async () => {
    const pdf = pageTreeDagPdf(20);
    expect(pdf.length).toBeLessThan(4000);
    const { status, body } = await survives('page-tree DAG, 2^20 pages', { file: pdf, filename: 'dag.pdf' });
    expect(status).toBe(413);
    expect(body).toMatchObject({
      code: 'payload_too_large',
      limit: 'MAX_PDF_PAGES',
      found: 2 ** 20,
      max: 2000,
    });
  }, 60_000);

  it('refuses a page tree whose shared nodes stay under the page cap with 422 (a page reached twice)', async () => {
    const { status, body } = await survives('page-tree DAG, 2^10 pages', {
      file: pageTreeDagPdf(10),
      filename: 'dag-small.pdf',
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 'document_too_complex', limit: 'page_tree' });
  }, 60_000);

  it('refuses a PDF of 20,000 distinct pages with 413 MAX_PDF_PAGES', async () => {
    const { status, body } = await survives('20,000 pages', {
      file: manyPagesPdf(20_000),
      filename: 'many.pdf',
    });
    expect(status).toBe(413);
    expect(body).toMatchObject({ limit: 'MAX_PDF_PAGES', found: 20_000 });
  }, 60_000);

  it('refuses an inflate bomb (one stream past 64 MB) and many streams only large together, with 413', async () => {
    const one = await survives('inflate bomb, 1 x 80 MB', {
      file: inflateBombPdf(80e6),
      filename: 'bomb.pdf',
    });
    expect(one.status).toBe(413);
    expect(one.body).toMatchObject({ limit: 'MAX_INFLATED_BYTES', max: 64 * 1024 * 1024 });
    const many = await survives('inflate bomb, 5 x 16 MB', {
      file: inflateBombPdf(16e6, 5),
      filename: 'bombs.pdf',
    });
    expect(many.status).toBe(413);
    expect(many.body).toMatchObject({ limit: 'MAX_INFLATED_BYTES' });
  }, 60_000);

  it('refuses HTML nested 100,000 levels deep, in five shapes, with 422 MAX_NESTING', async () => {
    for (const [shape, make] of Object.entries(deepHtml)) {
      const html = make(100_000);
      const asFile = await survives(`HTML ${shape}, file`, { file: html, filename: `${shape}.html` });
      expect(asFile.status).toBe(422);
      expect(asFile.body).toMatchObject({ code: 'document_too_complex', limit: 'MAX_NESTING', max: 256 });
    }
    const asJson = await survives('HTML divs, JSON', { text: deepHtml.divs(100_000), format: 'html' });
    expect(asJson.body).toMatchObject({ limit: 'MAX_NESTING' });
  }, 120_000);

  it('refuses Markdown nested 100,000 levels deep, and a list 1,000 levels deep, with 422 MAX_NESTING', async () => {
    const shapes = [
      ['quotes', deepMarkdown.quotes(100_000)],
      ['markers on one line', deepMarkdown.markersOnOneLine(100_000)],
      ['indented list, 1,000 levels', deepMarkdown.indentedList(1000)],
    ] as const;
    for (const [shape, text] of shapes) {
      const result = await survives(`Markdown ${shape}`, { text, format: 'markdown' });
      expect(result.status).toBe(422);
      expect(result.body).toMatchObject({ limit: 'MAX_NESTING', max: 256 });
    }
  }, 120_000);

  it('reads deep inline Markdown (emphasis, brackets) without a 500: trained or refused, never an error', async () => {
    for (const [shape, text] of [
      ['emphasis', deepMarkdown.emphasis(100_000)],
      ['links', deepMarkdown.links(100_000)],
    ] as const) {
      const { status } = await survives(`Markdown inline ${shape}`, { text, format: 'markdown' });
      expect([200, 413, 422]).toContain(status);
    }
  }, 120_000);

  it('still trains a nested list within the bound', async () => {
    const response = await send({ text: deepMarkdown.indentedList(40), format: 'markdown' });
    expect(response.status).toBe(200);
  }, 60_000);
});
