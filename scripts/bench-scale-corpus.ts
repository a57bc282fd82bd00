/**
 * The text of `npm run bench:scale`: documents found on the machine (the shared corpora, the Vim
 * documentation, Markdown installed with the packages under node_modules, /usr/share/doc), taken
 * in turn from each source so that a corpus of any size has about the same mix, and cut to size.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '..');
/** Pieces the KJV is cut into, so it takes turns with the other sources like a document does. */
const PIECE_BYTES = 200_000;
/** Largest document taken whole (longer ones, mostly changelogs, are cut). */
const DOCUMENT_MAX_BYTES = 400_000;

/** Folder of the shared corpora: CORPORA_DIR, else the first of the usual places that exists. */
export function corporaDirectory(): string | undefined {
  const candidates = [
    process.env.CORPORA_DIR,
    resolve(ROOT, '../shared/corpora'),
    resolve(ROOT, '../../shared/corpora'),
  ];
  return candidates.find((dir): dir is string => dir !== undefined && existsSync(dir));
}

function filesUnder(dir: string, accept: (name: string) => boolean, depth = 8): string[] {
  if (depth < 0 || !existsSync(dir)) return [];
  const found: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  for (const name of names) {
    const path = join(dir, name);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) found.push(...filesUnder(path, accept, depth - 1));
    else if (stat.isFile() && accept(name)) found.push(path);
  }
  return found;
}

/** The text of a file when it is text (plain or gzipped, no NUL bytes, valid UTF-8), else undefined. */
function textOf(path: string): string | undefined {
  try {
    let bytes: Buffer = readFileSync(path);
    if (path.endsWith('.gz')) bytes = gunzipSync(bytes);
    if (bytes.byteLength < 200 || bytes.includes(0)) return undefined;
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (!looksWritten(text)) return undefined;
    return text.length > DOCUMENT_MAX_BYTES
      ? text.slice(0, text.lastIndexOf('\n', DOCUMENT_MAX_BYTES))
      : text;
  } catch {
    return undefined;
  }
}

/** Text people wrote (not PostScript, a table of numbers or encoded data): mostly words. */
function looksWritten(text: string): boolean {
  if (text.startsWith('%!')) return false;
  const sample = text.slice(0, 20_000);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  const spaces = sample.match(/\s/g)?.length ?? 0;
  return (letters + spaces) / sample.length >= 0.75 && spaces / sample.length >= 0.1;
}

function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf('\n\n', from + PIECE_BYTES);
    if (to < 0) to = text.length;
    pieces.push(text.slice(from, to));
    from = to;
  }
  return pieces;
}

/** The documents of each source, in a fixed order, read when taken. */
function sources(): (() => string | undefined)[][] {
  const corpora = corporaDirectory();
  const kjv = corpora ? join(corpora, 'kjv/kjv.raw.txt') : undefined;
  const vimDocs = readdirSync('/usr/share/vim', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('vim'))
    .flatMap((entry) =>
      filesUnder(join('/usr/share/vim', entry.name, 'doc'), (name) => name.endsWith('.txt')),
    );
  const markdown = [
    ...filesUnder(join(ROOT, 'node_modules'), (name) => /\.md$/i.test(name)),
    ...(corpora ? [join(corpora, 'docs/readmes.md'), join(corpora, 'docs/manpages.txt')] : []),
  ];
  const systemDocs = filesUnder(
    '/usr/share/doc',
    (name) => !/\.(html?|png|jpe?g|gif|svg|pdf|css|js)$/i.test(name),
  );
  const kjvPieces = kjv && existsSync(kjv) ? piecesOf(readFileSync(kjv, 'utf8')) : [];
  return [
    kjvPieces.map((piece) => () => piece),
    ...[vimDocs, markdown, systemDocs].map((paths) => paths.map((path) => () => textOf(path))),
  ];
}

/**
 * Documents taken in turn from each source (skipping any seen before, by content), joined by
 * blank lines, until `maxBytes` (UTF-8) is reached. Returns less when the machine has less text.
 */
export function buildCorpus(maxBytes: number): string {
  const lists = sources();
  const seen = new Set<string>();
  const parts: string[] = [];
  let bytes = 0;
  for (let turn = 0; bytes < maxBytes && lists.some((list) => turn < list.length); turn++) {
    for (const list of lists) {
      const document = list[turn]?.();
      if (document === undefined) continue;
      const digest = createHash('sha1').update(document).digest('hex');
      if (seen.has(digest)) continue;
      seen.add(digest);
      parts.push(document.trim());
      bytes += Buffer.byteLength(document) + 2;
      if (bytes >= maxBytes) break;
    }
  }
  return prefixOf(parts.join('\n\n'), maxBytes);
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes that ends at a line end. */
export function prefixOf(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.byteLength <= maxBytes) return text;
  const cut = bytes.subarray(0, maxBytes).toString('utf8');
  return cut.slice(0, cut.lastIndexOf('\n') + 1);
}
