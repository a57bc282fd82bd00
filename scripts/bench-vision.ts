/**
 * `npm run bench:vision [-- --skip-uploads]`: text recognition as the service does it (the chat
 * analysis: checks, colours and text) beside tesseract.js called directly on the same images,
 * each in a process of its own. The images are rendered here with the fonts on the machine
 * (screens, receipts, signs, rotated, JPEG q40, small text, columns, a large photo, images without
 * text). Prints per kind and overall: content-word recall, images without text where text was
 * claimed, time per image (p50, p90) and peak RSS. Then 8 parallel uploads of large photos to
 * `npm start` and that server's peak RSS. Figures only: nothing here fails on a timing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { STOP_WORDS } from '../lib/text/index.js';
import { type BenchImage, largePhoto, renderBenchImages } from './bench-vision/images.js';

const root = resolve(import.meta.dirname, '..');
const PARALLEL_UPLOADS = 8;

interface ImageResult {
  name: string;
  kind: string;
  ms: number;
  /** The service's text recognition alone (image preparation included), without the rest of the analysis. */
  recognitionMs?: number;
  /** The words read, lower-cased. */
  words: string[];
}

interface PhaseResult {
  startMs: number;
  peakRssMb: number;
  images: ImageResult[];
}

/** Content words of a text: lower-cased letters and digits, stop-words left out. */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,][\p{N}]+)*/gu) ?? []).filter(
    (word) => !STOP_WORDS.has(word),
  );
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,][\p{N}]+)*/gu) ?? [];

/** Peak resident memory of this process so far (VmHWM), in MB. */
function peakRssMb(pid: number | 'self' = 'self'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function runDirect(images: BenchImage[]): Promise<PhaseResult> {
  const { createWorker, OEM } = await import('tesseract.js');
  const { languageDataPath } = await import('../lib/vision/index.js');
  const started = performance.now();
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: resolve(languageDataPath('eng'), '..'),
    cacheMethod: 'none',
  });
  const startMs = performance.now() - started;
  const results: ImageResult[] = [];
  for (const image of images) {
    const begin = performance.now();
    const { data } = await worker.recognize(image.bytes);
    results.push({
      name: image.name,
      kind: image.kind,
      ms: performance.now() - begin,
      words: wordsOf(data.text),
    });
  }
  await worker.terminate();
  return { startMs, peakRssMb: peakRssMb(), images: results };
}

async function runService(images: BenchImage[]): Promise<PhaseResult> {
  const { parseConfig } = await import('../lib/config/index.js');
  const { analyseImage, createTextRecognizer, recognizerOptionsOf } = await import('../lib/vision/index.js');
  const recognizer = createTextRecognizer(recognizerOptionsOf(parseConfig({ OCR_TIMEOUT_MS: '60000' })));
  const started = performance.now();
  // The first image starts the engine: timed apart, as the direct call's worker start is.
  await recognizer.recognize(images.find((image) => image.kind === 'no-text')!.bytes);
  const startMs = performance.now() - started;
  const results: ImageResult[] = [];
  for (const image of images) {
    const begin = performance.now();
    let recognitionMs = 0;
    const timed = {
      ...recognizer,
      recognize: async (bytes: Uint8Array) => {
        const text = await recognizer.recognize(bytes);
        recognitionMs = text.ms;
        return text;
      },
    };
    const analysis = await analyseImage(image.bytes, { recognizer: timed });
    results.push({
      name: image.name,
      kind: image.kind,
      ms: performance.now() - begin,
      recognitionMs,
      words: wordsOf(analysis.text.join('\n')),
    });
  }
  await recognizer.close();
  return { startMs, peakRssMb: peakRssMb(), images: results };
}

/** Runs one phase in a fresh process, so each has its own memory figures. */
function runPhase(phase: 'direct' | 'service', folder: string): Promise<PhaseResult> {
  return new Promise((resolvePhase, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', import.meta.filename, '--phase', phase, '--folder', folder],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the ${phase} phase exited with ${code}`));
      resolvePhase(JSON.parse(readFileSync(join(folder, `${phase}.json`), 'utf8')) as PhaseResult);
    });
  });
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

interface Figures {
  recall: number;
  claimed: string;
  p50: number;
  p90: number;
  /** p50 of the recognition alone (the service only). */
  recognitionP50: number;
}

function figuresOf(images: BenchImage[], results: ImageResult[]): Figures {
  let expected = 0;
  let found = 0;
  let textless = 0;
  let claimed = 0;
  results.forEach((result, i) => {
    const image = images[i]!;
    const words = contentWords(image.text);
    if (words.length === 0) {
      textless++;
      if (contentWords(result.words.join(' ')).some((word) => word.length >= 2)) claimed++;
      return;
    }
    const read = new Set(result.words);
    expected += words.length;
    found += words.filter((word) => read.has(word)).length;
  });
  const times = results.map((result) => result.ms);
  return {
    recall: expected === 0 ? Number.NaN : found / expected,
    claimed: textless === 0 ? '-' : `${claimed}/${textless}`,
    p50: percentile(times, 0.5),
    p90: percentile(times, 0.9),
    recognitionP50: percentile(
      results.map((result) => result.recognitionMs ?? result.ms),
      0.5,
    ),
  };
}

function printComparison(images: BenchImage[], direct: PhaseResult, service: PhaseResult): void {
  const kinds = [...new Set(images.map((image) => image.kind))];
  const rows: string[][] = [];
  const pct = (value: number) => (Number.isNaN(value) ? '-' : `${(value * 100).toFixed(1)}%`);
  const ms = (value: number) => `${Math.round(value)} ms`;
  const row = (label: string, indexes: number[]) => {
    const subset = indexes.map((i) => images[i]!);
    const d = figuresOf(
      subset,
      indexes.map((i) => direct.images[i]!),
    );
    const s = figuresOf(
      subset,
      indexes.map((i) => service.images[i]!),
    );
    rows.push([
      label,
      String(subset.length),
      pct(d.recall),
      pct(s.recall),
      d.claimed,
      s.claimed,
      ms(d.p50),
      ms(s.recognitionP50),
      ms(s.p50),
      ms(d.p90),
      ms(s.p90),
    ]);
  };
  for (const kind of kinds) {
    row(
      kind,
      images.flatMap((image, i) => (image.kind === kind ? [i] : [])),
    );
  }
  row(
    'overall',
    images.map((_, i) => i),
  );
  const header = [
    'kind',
    'images',
    'recall direct',
    'recall service',
    'text claimed direct',
    'service',
    'p50 direct',
    'p50 service ocr',
    'p50 service analysis',
    'p90 direct',
    'p90 service',
  ];
  printTable(header, rows);
  console.log(
    `\nengine start: direct ${ms(direct.startMs)}, service ${ms(service.startMs)} (first image included) · peak RSS: direct ${direct.peakRssMb} MB, service ${service.peakRssMb} MB`,
  );
  const overallDirect = figuresOf(images, direct.images);
  const overallService = figuresOf(images, service.images);
  console.log(
    `targets: recall within 5 points of direct: ${((overallDirect.recall - overallService.recall) * 100).toFixed(1)} points behind · no text claimed on text-less images: ${overallService.claimed} · p50 within 1.5x of direct: ${(overallService.recognitionP50 / overallDirect.p50).toFixed(2)}x for the recognition, ${(overallService.p50 / overallDirect.p50).toFixed(2)}x for the whole analysis (decoding check and colours too)`,
  );
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(`\n${line(header)}\n${line(widths.map((width) => '-'.repeat(width)))}`);
  for (const row of rows) console.log(line(row));
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** 8 large photos uploaded at once to `npm start`; the server's peak RSS and how the uploads ended. */
async function parallelUploads(folder: string): Promise<void> {
  const photos = await Promise.all(
    Array.from({ length: PARALLEL_UPLOADS }, (_, i) =>
      largePhoto([`Trail marker ${i + 1} closed for repairs`, 'Visitor centre open until sunset'], 1000 + i),
    ),
  );
  const port = await freePort();
  const dataDir = join(folder, 'server-data');
  mkdirSync(dataDir);
  const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/serve.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error', STARTER_TEXT: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((ready, fail) => {
      let output = '';
      const timer = setTimeout(() => fail(new Error(`npm start did not listen:\n${output}`)), 30_000);
      const onData = (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Listening on http://')) {
          clearTimeout(timer);
          ready();
        }
      };
      server.stdout?.on('data', onData);
      server.stderr?.on('data', onData);
    });
    const before = peakRssMb(server.pid!);
    const started = performance.now();
    const statuses = await Promise.all(
      photos.map(async (photo, i) => {
        const form = new FormData();
        form.append(
          'file',
          new Blob([new Uint8Array(photo.bytes)], { type: 'image/jpeg' }),
          `photo-${i}.jpg`,
        );
        const response = await fetch(`http://127.0.0.1:${port}/api/upload`, {
          method: 'POST',
          body: form,
          headers: { 'x-real-ip': `198.51.100.${i + 1}` },
        });
        const body = (await response.json()) as { text?: string[] };
        const words = new Set(wordsOf((body.text ?? []).join(' ')));
        const expected = contentWords(photo.text);
        return {
          status: response.status,
          recall: expected.filter((word) => words.has(word)).length / expected.length,
        };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const sizes = photos.map((photo) => photo.bytes.length / 1024 / 1024);
    console.log(
      `\n${PARALLEL_UPLOADS} parallel uploads of 4000×3000 JPEG photos (${Math.min(...sizes).toFixed(1)}-${Math.max(...sizes).toFixed(1)} MB) to npm start: ` +
        `statuses ${statuses.map((s) => s.status).join(' ')}, mean recall ${((statuses.reduce((sum, s) => sum + s.recall, 0) / statuses.length) * 100).toFixed(0)}%, ${seconds.toFixed(1)} s in all · ` +
        `server peak RSS ${peakRssMb(server.pid!)} MB (${before} MB before the uploads; target < 400 MB)`,
    );
  } finally {
    server.kill('SIGINT');
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { phase: { type: 'string' }, folder: { type: 'string' }, 'skip-uploads': { type: 'boolean' } },
  });
  if (values.phase && values.folder) {
    const images = await renderBenchImages();
    const result = values.phase === 'direct' ? await runDirect(images) : await runService(images);
    writeFileSync(join(values.folder, `${values.phase}.json`), JSON.stringify(result));
    process.exit(0);
  }
  const folder = mkdtempSync(join(tmpdir(), 'bench-vision-'));
  try {
    const images = await renderBenchImages();
    const kinds = [...new Set(images.map((image) => image.kind))];
    console.log(
      `bench:vision on Node ${process.versions.node}: ${images.length} rendered images (${kinds.join(', ')}); tesseract.js direct vs the service's analysis`,
    );
    const direct = await runPhase('direct', folder);
    const service = await runPhase('service', folder);
    printComparison(images, direct, service);
    if (!values['skip-uploads']) await parallelUploads(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

await main();
