/**
 * `npm run train -- PATH... [options]`: keeps the service's documents in sync with files and
 * folders. Each file is a document (`PREFIX/path/in/folder`, or a lone file's name); a file the
 * service already holds with the same SHA-256 costs no training, so a run stopped at any point
 * and started again finishes the job without learning anything twice. Text over 1 MB goes in
 * parts of one document; AsciiDoc is converted to HTML first; binary and invalid UTF-8 files are
 * refused. See README ("Train on a folder") and docs/training.md.
 */
import { parseArgs } from 'node:util';
import {
  checkReachable,
  defaultServiceUrl,
  type FileOutcome,
  formatBytes,
  type OwnerCredentials,
  progressLine,
  SelectionError,
  type SendNotice,
  type SyncEvent,
  selectSources,
  serviceUrlsOf,
  syncDocuments,
} from '../lib/train-client/index.js';
import { MAX_TRAIN_TEXT_BYTES } from '../lib/training/schema.js';

const USAGE = `usage: npm run train -- PATH... [options]

  PATH                 a folder (every .md, .mdx, .txt, .html, .pdf, .adoc under it, each the
                       document PREFIX/its/path) or a file (the document named as the file)
  --url URL            the service (default TRAIN_URL, else http://localhost:$PORT, PORT 3000)
  --prefix P           the id prefix of a folder's documents (default: the folder's name);
                       repeat it once per folder, in the folders' order
  --include GLOB       train only files matching GLOB (repeatable; a GLOB without / matches names)
  --exclude GLOB       leave out files matching GLOB (repeatable)
  --prune              delete the documents under a folder's prefix whose files are gone
  --dry-run            print what would change, change nothing
  --source-url T       each document's citation URL: {path} is its path in the folder without
                       the extension, {file} with it (e.g. https://docs.example.org/{path})
  --owner-email E      the owner's e-mail (default OWNER_EMAIL)
  --admin-token T      the admin token (default ADMIN_TOKEN; the variable is safer, a flag shows
                       in ps); with the e-mail it lists the documents (unchanged files are
                       skipped unsent), allows --prune and trains at the owner's own limit
  --part-bytes N       largest part in bytes (default and maximum ${MAX_TRAIN_TEXT_BYTES})
`;

class UsageError extends Error {}

const PAST: Record<FileOutcome, string> = {
  trained: 'trained',
  replaced: 'replaced',
  unchanged: 'unchanged',
  skipped: 'skipped',
  failed: 'failed',
  'would-train': 'would train',
  'would-replace': 'would replace',
  'would-send': 'would send',
};

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      prefix: { type: 'string', multiple: true },
      include: { type: 'string', multiple: true },
      exclude: { type: 'string', multiple: true },
      prune: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      'source-url': { type: 'string' },
      'owner-email': { type: 'string' },
      'admin-token': { type: 'string' },
      'part-bytes': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('PATH is required');
  const partBytes = values['part-bytes'] === undefined ? MAX_TRAIN_TEXT_BYTES : Number(values['part-bytes']);
  if (!Number.isInteger(partBytes) || partBytes < 16 || partBytes > MAX_TRAIN_TEXT_BYTES) {
    throw new UsageError(`--part-bytes must be a whole number from 16 to ${MAX_TRAIN_TEXT_BYTES}`);
  }
  const sourceUrl = values['source-url'];
  if (sourceUrl !== undefined && !/^https?:\/\/[^/]/i.test(sourceUrl)) {
    throw new UsageError(
      '--source-url must be an http(s) URL template, e.g. https://docs.example.org/{path}',
    );
  }
  const owner = ownerOf(
    values['owner-email'] ?? process.env.OWNER_EMAIL,
    values['admin-token'] ?? process.env.ADMIN_TOKEN,
  );
  if (values.prune && !owner) {
    throw new UsageError(
      '--prune needs owner credentials: OWNER_EMAIL and ADMIN_TOKEN, or --owner-email and --admin-token',
    );
  }
  let urls: ReturnType<typeof serviceUrlsOf>;
  try {
    urls = serviceUrlsOf(values.url ?? defaultServiceUrl(process.env));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let selection: Awaited<ReturnType<typeof selectSources>>;
  try {
    selection = await selectSources(positionals, {
      prefixes: values.prefix,
      include: values.include,
      exclude: values.exclude,
    });
  } catch (error) {
    if (error instanceof SelectionError) throw new UsageError(error.message);
    throw error;
  }
  await checkReachable(urls.base);

  const dryRun = values['dry-run'];
  const tty = process.stderr.isTTY === true;
  const totalBytes = selection.sources.reduce((sum, source) => sum + source.bytes, 0);
  const progress = { sentBytes: 0, totalBytes, parts: 0, tokens: 0 };
  let doneBytes = 0;
  const draw = () => tty && process.stderr.write(`\r${progressLine(progress)}\x1b[K`);
  const say = (line: string) => process.stderr.write(tty ? `\r${line}\x1b[K\n` : `${line}\n`);
  const onEvent = (event: SyncEvent) => {
    switch (event.type) {
      case 'file': {
        const notes = event.notes?.length ? ` (${event.notes.join('; ')})` : '';
        say(
          `${PAST[event.outcome]} ${event.source.documentId}${event.detail ? `: ${event.detail}` : ''}${notes}`,
        );
        // The bar counts files done (sent, unchanged, skipped alike) and the parts of the current one.
        doneBytes += event.source.bytes;
        progress.sentBytes = doneBytes;
        break;
      }
      case 'part':
        progress.parts++;
        progress.tokens += event.result.tokens;
        progress.sentBytes = Math.min(doneBytes + event.source.bytes, progress.sentBytes + event.bytes);
        if (event.parts > 1)
          say(`  part ${event.part} of ${event.parts}: ${formatBytes(event.bytes)}, ${event.result.status}`);
        break;
      case 'pruned':
      case 'would-prune':
        say(`${event.type === 'pruned' ? 'pruned' : 'would prune'} ${event.id}`);
        break;
      case 'prune-failed':
        say(`failed to prune ${event.id}: ${event.detail}`);
        break;
      case 'notice':
        say(`  ${event.source.documentId}: ${noticeLine(event.notice)}`);
        break;
    }
    draw();
  };

  say(
    `${dryRun ? 'Dry run against' : 'Syncing'} ${urls.base}: ${selection.sources.length} file${selection.sources.length === 1 ? '' : 's'} (${formatBytes(totalBytes)})${owner ? ' as the owner' : ''}`,
  );
  const started = performance.now();
  const summary = await syncDocuments({
    base: urls.base,
    trainUrl: urls.train,
    selection,
    owner,
    prune: values.prune,
    dryRun,
    sourceUrl,
    partBytes,
    onEvent,
  });
  if (tty) process.stderr.write('\r\x1b[K');
  for (const failure of summary.failures) process.stdout.write(`failed: ${failure.id}: ${failure.detail}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const counts = `${summary.trained} trained, ${summary.replaced} replaced, ${summary.unchanged} unchanged, ${summary.pruned} pruned, ${summary.skipped} skipped, ${summary.failed} failed`;
  process.stdout.write(
    dryRun && !owner
      ? `Dry run, nothing changed; would send ${summary.trained} file${summary.trained === 1 ? '' : 's'} (without owner credentials the CLI cannot tell which changed), ${summary.skipped} skipped, ${summary.failed} failed.\n`
      : dryRun
        ? `Dry run, nothing changed; would be: ${counts}.\n`
        : `Summary: ${counts} in ${seconds} s${summary.tokens > 0 ? ` (${summary.tokens} tokens, vocabulary ${summary.vocabSize})` : ''}.\n`,
  );
  return summary.failed > 0 ? 1 : 0;
}

function ownerOf(email: string | undefined, token: string | undefined): OwnerCredentials | undefined {
  if (!email && !token) return undefined;
  if (!email || !token) {
    throw new UsageError(
      'owner credentials need both the e-mail (OWNER_EMAIL or --owner-email) and the token (ADMIN_TOKEN or --admin-token)',
    );
  }
  return { email, token };
}

function noticeLine(notice: SendNotice): string {
  const wait = `${(notice.waitMs / 1000).toFixed(1)} s`;
  switch (notice.kind) {
    case 'limited':
      return `HTTP ${notice.status}, waiting ${wait} (Retry-After) before try ${notice.attempt + 1}`;
    case 'busy':
      return `still being trained elsewhere (409 train_in_progress), waiting ${wait} before try ${notice.attempt + 1}`;
    case 'server-error':
      return `HTTP ${notice.status}: ${notice.message}, retrying in ${wait}`;
    case 'network':
      return `${notice.message}, retrying in ${wait}`;
  }
}

// Stopping is always safe (each document is replaced whole or not at all); say how to finish.
process.once('SIGINT', () => {
  process.stderr.write(
    `${process.stderr.isTTY ? '\n' : ''}train: interrupted. Run the same command again to finish; what was sent is not sent twice.\n`,
  );
  process.exit(130);
});

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}train: ${(error as Error).message}\n`);
    if (usage) process.stderr.write(USAGE);
    process.exit(usage ? 2 : 1);
  },
);
