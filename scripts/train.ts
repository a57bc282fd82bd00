/**
 * `npm run train -- PATH... [--url URL]`: trains the model on files of any size: .txt, .md, .html
 * and .pdf, folders included (every such file under them). Text is read as a stream and cut into
 * parts under the server's 1 MB cap (at blank lines, else at line ends; Markdown before headings),
 * each sent with its format and file name to POST /api/train; a PDF is sent whole as a file (the
 * server extracts its text). 429/503 (Retry-After) and network errors are waited out. A progress
 * bar on a terminal, one line per part otherwise.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  type DocumentFile,
  documentFilesOf,
  formatBytes,
  type PartResult,
  partsOf,
  progressLine,
  type SendNotice,
  sendFile,
  sendPart,
  splitForTraining,
  splitMarkdownForTraining,
  utf8Bytes,
} from '../lib/train-client/index.js';
import { MAX_TRAIN_FILE_BYTES, MAX_TRAIN_TEXT_BYTES } from '../lib/training/schema.js';

const USAGE = `usage: npm run train -- FILE... [--url URL] [--part-bytes N]

  FILE           a file (.txt, .md, .html, .pdf; any other name is read as UTF-8 text), any size,
                 or a folder: every .txt, .md, .html and .pdf under it
  --url URL      the service (default http://localhost:3000; a URL ending in /api/train is used as is)
  --part-bytes N largest part in bytes (default and maximum ${MAX_TRAIN_TEXT_BYTES})
`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string', default: process.env.TRAIN_URL ?? 'http://localhost:3000' },
      'part-bytes': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (positionals.length === 0) throw new UsageError('FILE is required');
  const partBytes = values['part-bytes'] === undefined ? MAX_TRAIN_TEXT_BYTES : Number(values['part-bytes']);
  if (!Number.isInteger(partBytes) || partBytes < 16 || partBytes > MAX_TRAIN_TEXT_BYTES) {
    throw new UsageError(`--part-bytes must be a whole number from 16 to ${MAX_TRAIN_TEXT_BYTES}`);
  }
  const url = trainUrl(values.url!);
  const files = await documentFilesOf(positionals);
  const totalBytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const what = positionals.length === 1 ? positionals[0]! : `${files.length} files`;

  const tty = process.stderr.isTTY === true;
  const run = randomUUID();
  const state = { sentBytes: 0, totalBytes, parts: 0, tokens: 0, vocabSize: 0 };
  const draw = () => tty && process.stderr.write(`\r${progressLine(state)}\x1b[K`);
  const say = (line: string) => process.stderr.write(tty ? `\r${line}\x1b[K\n` : `${line}\n`);
  const onNotice = (notice: SendNotice) => {
    const wait = `${(notice.waitMs / 1000).toFixed(1)} s`;
    say(
      notice.kind === 'limited'
        ? `part ${state.parts + 1}: HTTP ${notice.status}, waiting ${wait} (Retry-After) before try ${notice.attempt + 1}`
        : `part ${state.parts + 1}: ${notice.message}, retrying in ${wait}`,
    );
    draw();
  };

  say(
    `Training ${url} on ${what} (${formatBytes(totalBytes)}) in parts of at most ${formatBytes(partBytes)}`,
  );
  draw();
  const started = performance.now();
  for (const file of files) {
    if (files.length > 1) say(`${file.name} (${file.format}, ${formatBytes(file.bytes)})`);
    for await (const part of partsOfFile(file, partBytes)) {
      const options = { url, idempotencyKey: `${run}-${state.parts + 1}`, onNotice, ...file };
      const result: PartResult =
        typeof part === 'string'
          ? await sendPart(part, options)
          : await sendFile(part, file.name.split('/').pop()!, options);
      const bytes = typeof part === 'string' ? utf8Bytes(part) : part.byteLength;
      state.parts++;
      state.sentBytes += bytes + 2;
      state.tokens += result.tokens;
      state.vocabSize = result.vocabSize;
      if (tty) draw();
      else
        say(
          `part ${state.parts}: ${formatBytes(bytes)}, ${result.tokens} tokens, vocabulary ${result.vocabSize}`,
        );
    }
  }
  state.sentBytes = totalBytes;
  draw();
  if (tty) process.stderr.write('\n');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    state.parts === 0
      ? `Nothing to train: ${what} holds no text.\n`
      : `Trained ${state.parts} part${state.parts === 1 ? '' : 's'} in ${seconds} s: ${state.tokens} tokens, vocabulary ${state.vocabSize}.\n`,
  );
}

/**
 * The parts of one file: a PDF whole (bytes), Markdown cut before headings, HTML whole when it
 * fits (else as text), other text streamed in parts.
 */
async function* partsOfFile(file: DocumentFile, partBytes: number): AsyncGenerator<string | Uint8Array> {
  if (file.format === 'pdf') {
    if (file.bytes > MAX_TRAIN_FILE_BYTES) {
      throw new Error(
        `${file.name} is ${formatBytes(file.bytes)}; a PDF may be at most ${formatBytes(MAX_TRAIN_FILE_BYTES)}`,
      );
    }
    yield new Uint8Array(await readFile(file.path));
    return;
  }
  if (file.format === 'markdown' || file.format === 'html') {
    const text = await readFile(file.path, 'utf8');
    if (file.format === 'markdown') yield* splitMarkdownForTraining(text, partBytes);
    else yield* utf8Bytes(text) <= partBytes ? [text] : splitForTraining(text, partBytes);
    return;
  }
  yield* partsOf(createReadStream(file.path, { encoding: 'utf8', highWaterMark: 256 * 1024 }), partBytes);
}

/** The train endpoint of a base URL: `http://host:3000` -> `http://host:3000/api/train`. */
function trainUrl(base: string): string {
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    throw new UsageError(`--url ${base} is not an absolute URL`);
  }
  if (/\/api\/train\/?$/.test(parsed.pathname)) return parsed.href;
  return new URL(`${parsed.pathname.replace(/\/+$/, '')}/api/train`, parsed).href;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage =
    error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}train: ${(error as Error).message}\n`);
  if (usage) process.stderr.write(USAGE);
  process.exit(usage ? 2 : 1);
});
