import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  DEFAULT_READ_LIMITS,
  type DocumentFormat,
  extractPdfText,
  formatOfFile,
  readDocument,
  redirectTarget,
} from '../lib/documents/index.js';
import { MAX_TRAIN_TEXT_BYTES } from '../lib/training/schema.js';
import type { BenchClient } from './bench-chat.js';

/**
 * The question sets of `npm run bench:qa` and `npm run bench:converse` (bench/qa/sets.json): where
 * a set's documents are, how each is read (a PDF's text extracted as the upload does), and the
 * questions with their halves. Shared by the benchmarks, the checker (`bench-qa-check.ts`) and the
 * floors test, so that all of them train and ask exactly the same things.
 */

/** One entry of a set's `files`: a file, or a folder whose document files are all trained. */
export interface SetFile {
  path: string;
  /** The format of a file, or of every document file of a folder (else each file's by its extension). */
  format?: DocumentFormat;
  /** The name the document is trained under (a folder's files: their path inside the folder). */
  name?: string;
}

export interface QuestionSet {
  name: string;
  files: SetFile[];
  questions: string;
  where?: Record<string, string>;
  offcorpus?: string;
  latency?: boolean;
}

/** A question of a set: `a` the acceptable answer words, `half` where the set has halves. */
export interface Question {
  q: string;
  a?: string[];
  half?: Half;
  [field: string]: unknown;
}

export type Half = 'tuning' | 'heldout';

/** A document of a set as it is trained: its name, format and text (a PDF's extracted text). */
export interface SetDocument {
  name: string;
  format: DocumentFormat;
  text: string;
  /** A PDF's bytes: it is trained as a file upload, as a user sends it. */
  bytes?: Uint8Array<ArrayBuffer>;
  /** A text sent as the parts of one document (a PDF's text over 1 MB, as `npm run train` sends it). */
  whole?: boolean;
}

/** A path of sets.json on this machine: `corpora/…` under the corpora folder, else as given. */
export function resolveSetPath(path: string, corpora: string): string {
  return path.startsWith('corpora/') ? join(corpora, path.slice('corpora/'.length)) : path;
}

/** The sets of bench/qa/sets.json. */
export function loadSets(file = 'bench/qa/sets.json'): QuestionSet[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { sets: QuestionSet[] }).sets;
}

/**
 * The documents of a set, read as the service receives them; `missing` lists the paths not on
 * this machine (a /usr/share/doc file of a package not installed), which are skipped.
 */
export async function setDocuments(
  set: QuestionSet,
  corpora: string,
): Promise<{ documents: SetDocument[]; missing: string[] }> {
  const documents: SetDocument[] = [];
  const missing: string[] = [];
  for (const file of set.files) {
    const path = resolveSetPath(file.path, corpora);
    if (!existsSync(path)) {
      missing.push(file.path);
      continue;
    }
    if (statSync(path).isDirectory()) {
      // Sorted so that every run trains the folder's files in the same order.
      for (const inner of walk(path).sort()) {
        // A document file by its extension, trained as the set's format where it names one.
        const format = formatOfFile(inner);
        if (!format) continue;
        const document = await readSetFile(inner, file.format ?? format, relative(path, inner));
        // As the train client does: a page that only redirects (a manual's node alias) is skipped.
        if (document.format === 'html' && redirectTarget(document.text) !== null) continue;
        documents.push(document);
      }
      continue;
    }
    const format = file.format ?? formatOfFile(path) ?? 'text';
    documents.push(await readSetFile(path, format, file.name ?? path.split('/').pop()!));
  }
  return { documents, missing };
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

async function readSetFile(path: string, format: DocumentFormat, name: string): Promise<SetDocument> {
  const bytes = readFileSync(path);
  if (format === 'pdf') {
    // As `npm run train` sends it: the file, or, where its text is more than a request takes, that
    // text read here in parts of one document (trainSet).
    const text = await extractPdfText(new Uint8Array(bytes), {
      ...DEFAULT_READ_LIMITS,
      maxTextBytes: 64 * 1024 * 1024,
    });
    if (Buffer.byteLength(text) > MAX_TRAIN_TEXT_BYTES) return { name, format, text, whole: true };
    return { name, format, text, bytes: new Uint8Array(bytes) };
  }
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return { name, format, text };
}

/** A set's questions (its `where` applied); [] when the file is missing. */
export function setQuestions(set: QuestionSet, corpora: string): Question[] {
  return readQuestions(set.questions, corpora).filter((question) =>
    Object.entries(set.where ?? {}).every(([field, value]) => question[field] === value),
  );
}

/** A set's off-corpus questions (all of the file: `where` picks among answered questions only). */
export function offCorpusQuestions(set: QuestionSet, corpora: string): Question[] {
  return set.offcorpus ? readQuestions(set.offcorpus, corpora) : [];
}

function readQuestions(file: string, corpora: string): Question[] {
  const path = resolveSetPath(file, corpora);
  if (!existsSync(path)) return [];
  return JSON.parse(readFileSync(path, 'utf8')) as Question[];
}

/** The text a reader of the service finds in a document: its sections' headings and blocks. */
export function readableText(document: SetDocument): string {
  const parsed = readDocument({ format: document.format, text: document.text });
  return parsed.sections
    .map((section) => [section.path.join('\n'), ...section.blocks.map((block) => block.text)].join('\n'))
    .join('\n');
}

/** Deterministic pseudo-random numbers (mulberry32): the halves are drawn with a fixed seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed the halves of every set were drawn with (issue 27 and 28: 2728). */
export const HALVES_SEED = 2728;

/**
 * Which of `count` items are held out: `heldout` of them, drawn by a Fisher-Yates shuffle seeded
 * with HALVES_SEED and the set's name, so a set's halves do not depend on the other sets.
 */
export function heldOutIndexes(count: number, heldout: number, setName: string): Set<number> {
  let seed = HALVES_SEED;
  for (const char of setName) seed = (Math.imul(seed, 31) + char.charCodeAt(0)) >>> 0;
  const random = seeded(seed);
  const order = [...Array(count).keys()];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return new Set(order.slice(0, heldout));
}

/** A turn of a conversation of bench/converse/docs.json. */
export interface ConverseTurn {
  q: string;
  /** The follow-up written out in full (a turn that leans on the conversation has one). */
  std?: string;
  a?: string[];
  /** A self-contained question after a conversation: compared with the same question asked fresh. */
  fresh?: boolean;
  /** A social turn; `ok` is the pattern a fitting reply matches. */
  social?: boolean;
  ok?: string;
}

export interface ConverseConversation {
  /** A part of the name of a set of bench/qa/sets.json. */
  set: string;
  half?: Half;
  turns: ConverseTurn[];
}

export interface ConverseFile {
  about?: string;
  conversations: ConverseConversation[];
}

/** The set of sets.json whose name holds `part` (case-insensitive); throws when none does. */
export function findSet(sets: QuestionSet[], part: string): QuestionSet {
  const found = sets.find((set) => set.name.toLowerCase().includes(part.toLowerCase()));
  if (!found) throw new Error(`no set of bench/qa/sets.json is named like "${part}"`);
  return found;
}

/** Trains a set's documents into a client as a user would send them (a PDF as a file upload). */
export async function trainSet(client: BenchClient, documents: SetDocument[]): Promise<void> {
  for (const document of documents) {
    if (document.bytes) await client.trainFile(document.bytes, document.name);
    else
      await client.train(document.text, {
        format: document.format,
        name: document.name,
        ...(document.whole ? { documentId: document.name } : {}),
      });
  }
}

/** The conversation files on the documentation sets: bench/converse/docs.json and every docs-*.json beside it. */
export function conversationFiles(): string[] {
  return readdirSync('bench/converse')
    .filter((name) => /^docs(-[\w-]+)?\.json$/.test(name))
    .sort()
    .map((name) => `bench/converse/${name}`);
}
