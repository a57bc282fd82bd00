import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { DEFAULT_READ_LIMITS, extractPdfText, redirectTarget } from '../../documents/index.js';
import { MAX_TRAIN_FILE_BYTES, MAX_TRAIN_TEXT_BYTES } from '../../training/schema.js';
import type { TrainSource } from '../files.js';
import { formatBytes } from '../progress.js';
import { asciidocToHtml, looksLikeAsciiDoc } from './asciidoc.js';
import { mdxAsMarkdown } from './mdx.js';
import { PartPacker, partsOf, splitForTraining, splitMarkdownForTraining, utf8Bytes } from './split.js';
import { decodeWhole, readText, UnreadableText } from './utf8-text.js';

/** The formats the CLI sends text as (`pdf`: a PDF's text, read here, where it is too large to send whole). */
export type SentFormat = 'text' | 'markdown' | 'html' | 'pdf';

/**
 * A file made ready to send: its document's sha256 (of the bytes sent: the file, or the HTML an
 * AsciiDoc file became), and its text in parts, or the file itself (PDF); else why it is skipped.
 */
export type PreparedDocument =
  | { kind: 'skip'; reason: string }
  | { kind: 'file'; sha256: string; bytes: Uint8Array; filename: string }
  | {
      kind: 'text';
      format: SentFormat;
      sha256: string;
      parts: number;
      /** The parts, in order; throws if the file changed since it was prepared. */
      textParts(): AsyncIterable<string>;
      /** Said beside the file's line, e.g. that it was converted from AsciiDoc. */
      notes: string[];
    };

const ASCIIDOC_SNIFF_CHARS = 64 * 1024;

/** Reads, checks and cuts one file; never throws for a bad file, it says why it is skipped. */
export async function prepareSource(
  source: TrainSource,
  partBytes: number,
  /** The most text a PDF may hold to be sent as its file (the service's limit per request). */
  pdfTextBytes = MAX_TRAIN_TEXT_BYTES,
): Promise<PreparedDocument> {
  try {
    if (source.kind === 'pdf') return await preparePdf(source, partBytes, pdfTextBytes);
    if (source.kind === 'text' && source.bytes > partBytes) return await prepareLongText(source, partBytes);
    const text = decodeWhole(await readFile(source.path));
    if (source.kind === 'asciidoc' || (source.kind === 'text' && looksLikeAsciiDoc(text))) {
      return await prepareAsciiDoc(source, text, partBytes);
    }
    if (/\.mdx$/i.test(source.path)) return wholeText(mdxAsMarkdown(text), 'markdown', partBytes, []);
    // A page that only redirects (a manual's node alias) teaches nothing; its target is trained.
    const target = source.kind === 'html' ? redirectTarget(text) : null;
    if (target !== null) return { kind: 'skip', reason: `it only redirects to ${target}` };
    return wholeText(
      text,
      source.kind === 'html' ? 'html' : source.kind === 'markdown' ? 'markdown' : 'text',
      partBytes,
      [],
    );
  } catch (error) {
    if (error instanceof UnreadableText) return { kind: 'skip', reason: error.message };
    return {
      kind: 'skip',
      reason: `cannot read it: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    };
  }
}

/**
 * A PDF goes as its file, and the service reads it, where it fits a request: at most
 * MAX_TRAIN_FILE_BYTES, its text at most `textBytes`. A larger one (a manual of several hundred
 * pages) is read here, with the reader the service uses, and its text goes in parts as `pdf`, so
 * it keeps its pages. One that cannot be read here goes as its file where it fits, for the
 * service to say why.
 */
async function preparePdf(
  source: TrainSource,
  partBytes: number,
  textBytes: number,
): Promise<PreparedDocument> {
  const bytes = new Uint8Array(await readFile(source.path));
  const asFile: PreparedDocument = {
    kind: 'file',
    sha256: sha256Of(bytes),
    bytes,
    filename: source.relative.split('/').pop()!,
  };
  let text: string;
  try {
    text = await extractPdfText(new Uint8Array(bytes), {
      ...DEFAULT_READ_LIMITS,
      maxTextBytes: PDF_TEXT_READ_BYTES,
    });
  } catch (error) {
    if (source.bytes <= MAX_TRAIN_FILE_BYTES) return asFile;
    return {
      kind: 'skip',
      reason: `a PDF of ${formatBytes(source.bytes)} that cannot be read (${(error as Error).message})`,
    };
  }
  if (source.bytes <= MAX_TRAIN_FILE_BYTES && utf8Bytes(text) <= textBytes) return asFile;
  return wholeText(text, 'pdf', partBytes, [
    `a PDF of ${formatBytes(source.bytes)} with ${formatBytes(utf8Bytes(text))} of text, more than one request takes: read here and sent as text`,
  ]);
}

/** The most text read from one PDF here (the reader's other bounds, pages and inflated bytes, hold as on the service). */
const PDF_TEXT_READ_BYTES = 64 * 1024 * 1024;

async function prepareAsciiDoc(
  source: TrainSource,
  text: string,
  partBytes: number,
): Promise<PreparedDocument> {
  let converted: Awaited<ReturnType<typeof asciidocToHtml>>;
  try {
    converted = await asciidocToHtml(text, source.path);
  } catch (error) {
    return {
      kind: 'skip',
      reason: `AsciiDoc that @asciidoctor/core could not convert (${(error as Error).message})`,
    };
  }
  if (converted.html.replace(/<[^>]*>/g, '').trim() === '') {
    return { kind: 'skip', reason: 'AsciiDoc that converts to no text' };
  }
  const notes = [
    'converted from AsciiDoc to HTML',
    ...converted.warnings.map((warning) => `asciidoctor ${warning}`),
  ];
  return wholeText(converted.html, 'html', partBytes, notes);
}

function wholeText(text: string, format: SentFormat, partBytes: number, notes: string[]): PreparedDocument {
  if (text.trim() === '') return { kind: 'skip', reason: 'it holds no text' };
  const sha256 = sha256Of(text);
  // Text that fits is sent exactly as read, so the service's hash of it is the one computed here.
  const parts =
    utf8Bytes(text) <= partBytes
      ? [text]
      : format === 'markdown'
        ? splitMarkdownForTraining(text, partBytes)
        : splitForTraining(text, partBytes);
  return {
    kind: 'text',
    format,
    sha256,
    parts: parts.length,
    textParts: async function* () {
      yield* parts;
    },
    notes,
  };
}

/**
 * Plain text larger than a part, read twice as a stream so memory stays near one part: first to
 * check it, hash it and count its parts (part 1 carries the count and the whole file's hash),
 * then to send it.
 */
async function prepareLongText(source: TrainSource, partBytes: number): Promise<PreparedDocument> {
  const hash = createHash('sha256');
  const packer = new PartPacker(partBytes);
  let parts = 0;
  let head = '';
  for await (const text of readText(source.path, hash)) {
    if (head.length < ASCIIDOC_SNIFF_CHARS) head += text.slice(0, ASCIIDOC_SNIFF_CHARS - head.length);
    parts += packer.push(text).length;
  }
  parts += packer.end().length;
  if (looksLikeAsciiDoc(head)) {
    return prepareAsciiDoc(source, decodeWhole(await readFile(source.path)), partBytes);
  }
  if (parts === 0) return { kind: 'skip', reason: 'it holds no text' };
  const sha256 = hash.digest('hex');
  return {
    kind: 'text',
    format: 'text',
    sha256,
    parts,
    textParts: async function* () {
      const again = createHash('sha256');
      yield* partsOf(readText(source.path, again), partBytes);
      if (again.digest('hex') !== sha256) throw new Error('the file changed while it was being sent');
    },
    notes: [],
  };
}

function sha256Of(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
