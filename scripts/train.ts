/**
 * `npm run train -- FILE [--url URL]`: trains the model on a text file of any size. The file is
 * read as a stream and cut into parts under the server's 1 MB cap (at blank lines, else at line
 * ends), which are sent in order to POST /api/train, waiting out 429/503 (Retry-After) and
 * network errors. A progress bar on a terminal, one line per part otherwise.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  formatBytes,
  partsOf,
  progressLine,
  type SendNotice,
  sendPart,
  utf8Bytes,
} from '../lib/train-client/index.js';
import { MAX_TRAIN_TEXT_BYTES } from '../lib/training/schema.js';

const USAGE = `usage: npm run train -- FILE [--url URL] [--part-bytes N]

  FILE           a UTF-8 text file, any size
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
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? 'one FILE at a time' : 'FILE is required');
  const file = positionals[0]!;
  const partBytes = values['part-bytes'] === undefined ? MAX_TRAIN_TEXT_BYTES : Number(values['part-bytes']);
  if (!Number.isInteger(partBytes) || partBytes < 16 || partBytes > MAX_TRAIN_TEXT_BYTES) {
    throw new UsageError(`--part-bytes must be a whole number from 16 to ${MAX_TRAIN_TEXT_BYTES}`);
  }
  const url = trainUrl(values.url!);
  let totalBytes: number;
  try {
    totalBytes = statSync(file).size;
  } catch (error) {
    throw new Error(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }

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
    `Training ${url} on ${file} (${formatBytes(totalBytes)}) in parts of at most ${formatBytes(partBytes)}`,
  );
  draw();
  const started = performance.now();
  const text = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  for await (const part of partsOf(text, partBytes)) {
    const result = await sendPart(part, { url, idempotencyKey: `${run}-${state.parts + 1}`, onNotice });
    state.parts++;
    state.sentBytes += utf8Bytes(part) + 2;
    state.tokens += result.tokens;
    state.vocabSize = result.vocabSize;
    if (tty) draw();
    else
      say(
        `part ${state.parts}: ${formatBytes(utf8Bytes(part))}, ${result.tokens} tokens, vocabulary ${result.vocabSize}`,
      );
  }
  state.sentBytes = totalBytes;
  draw();
  if (tty) process.stderr.write('\n');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    state.parts === 0
      ? `Nothing to train: ${file} holds no text.\n`
      : `Trained ${state.parts} part${state.parts === 1 ? '' : 's'} in ${seconds} s: ${state.tokens} tokens, vocabulary ${state.vocabSize}.\n`,
  );
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
