import { ByteReader, ByteWriter } from '../lm/index.js';
import { IntColumn, TextColumn } from './columns.js';
import { PASSAGE_KINDS, PassageIndex } from './passage-index.js';
import type { PostingLists } from './postings.js';

/**
 * Bumped whenever the terms or the layout change (2: irregular past forms indexed under their base
 * form; 3: sections with heading paths, block kinds and their extras; 4: the passages as columns,
 * their texts as one run of UTF-8 bytes; 5: each section's document id and citation URL; 6: a
 * letter with "#" or "++" also indexed as one term, "c#"). Versions 2 to 5 are still read (an
 * index of version 5 only lacks those terms: such a name is then not found until it is retrained).
 */
const FORMAT_VERSION = 6;
const HAS_MARKDOWN = 1;
const HAS_NAME = 2;
const HAS_LANG = 4;
const HAS_PAGE = 8;

/** The index as bytes (sections, passages, terms, postings), for the model snapshot. */
export function serializePassageIndex(index: PassageIndex): Uint8Array {
  const { texts, chunks, lines, kinds, lengths } = index.columns;
  const contents = texts.contents();
  const out = new ByteWriter(contents.bytes.byteLength + index.size * 8 + (1 << 16));
  out.uint(FORMAT_VERSION);
  out.uint(index.sections.length);
  index.sections.forEach((section, id) => {
    out.uint(index.sectionSizes[id]);
    out.uint(section.path.length);
    for (const heading of section.path) out.string(heading);
    out.string(section.file ?? '');
    out.uint(section.markdown ? 1 : 0);
    out.uint(section.page ?? 0);
    out.string(section.documentId ?? '');
    out.string(section.url ?? '');
  });
  const size = index.size;
  // Chunks never decrease: their steps are small numbers.
  let chunk = 0;
  for (let id = 0; id < size; id++) {
    out.uint(chunks.get(id) - chunk);
    chunk = chunks.get(id);
  }
  for (let id = 0; id < size; id++) out.uint(lines.get(id));
  for (let id = 0; id < size; id++) out.uint(kinds.get(id));
  for (let id = 0; id < size; id++) out.uint(lengths.get(id));
  let start = 0;
  for (const end of contents.ends) {
    out.uint(end - start);
    start = end;
  }
  out.uint(contents.bytes.byteLength);
  out.raw(contents.bytes);
  writeExtras(out, index.markdowns, (text) => out.string(text));
  writeExtras(out, index.names, (text) => out.string(text));
  writeExtras(out, index.langs, (text) => out.string(text));
  writeExtras(out, index.pages, (page) => out.uint(page));
  writePostings(out, index.terms);
  return out.finish();
}

/** A sparse extra of the passages: how many have it, then (id step, value) for each, ids ascending. */
function writeExtras<T>(out: ByteWriter, extras: Map<number, T>, write: (value: T) => void): void {
  const ids = [...extras.keys()].sort((a, b) => a - b);
  out.uint(ids.length);
  let previous = 0;
  for (const id of ids) {
    out.uint(id - previous);
    write(extras.get(id)!);
    previous = id;
  }
}

function readExtras<T>(input: ByteReader, extras: Map<number, T>, size: number, read: () => T): void {
  let id = 0;
  for (let n = input.uint(); n > 0; n--) {
    id += input.uint();
    if (id >= size) throw new RangeError('passage index damaged');
    extras.set(id, read());
  }
}

/** Reads what `serializePassageIndex` wrote; throws on damaged or foreign bytes. */
export function deserializePassageIndex(bytes: Uint8Array): PassageIndex {
  const input = new ByteReader(bytes);
  const version = input.uint();
  if (version === 2) return readVersion2(input);
  if (version === 3) return readVersion3(input);
  if (version !== FORMAT_VERSION && version !== 4 && version !== 5)
    throw new RangeError(`passage index format ${version} is not supported`);
  const index = new PassageIndex();
  const sizes = readSections(input, index, version >= 5);
  const size = sizes.reduce((sum, n) => sum + n, 0);
  const column = (step: boolean) => {
    const values = new Int32Array(size);
    let value = 0;
    for (let id = 0; id < size; id++) {
      value = step ? value + input.uint() : input.uint();
      values[id] = value;
    }
    return values;
  };
  const chunks = column(true);
  const lines = column(false);
  const kinds = column(false);
  if (kinds.some((kind) => kind >= PASSAGE_KINDS.length)) throw new RangeError('passage index damaged');
  const lengths = column(false);
  const ends = column(true);
  const textBytes = input.uint();
  if (size > 0 && ends[size - 1] !== textBytes) throw new RangeError('passage index damaged');
  // A copy: the index must not keep the whole decompressed snapshot alive.
  const texts = new Uint8Array(textBytes);
  texts.set(input.raw(textBytes));
  const sections = new Int32Array(size);
  let id = 0;
  sizes.forEach((n, section) => {
    sections.fill(section, id, id + n);
    id += n;
  });
  index.columns = {
    chunks: IntColumn.of(chunks),
    lines: IntColumn.of(lines),
    kinds: IntColumn.of(kinds),
    sections: IntColumn.of(sections),
    lengths: IntColumn.of(lengths),
    texts: TextColumn.of(texts, ends),
  };
  for (const length of lengths) index.totalLength += length;
  readExtras(input, index.markdowns, size, () => input.string());
  readExtras(input, index.names, size, () => input.string());
  readExtras(input, index.langs, size, () => input.string());
  readExtras(input, index.pages, size, () => input.uint());
  sectionsSized(index, sizes);
  readPostings(input, index.terms);
  return index;
}

/** The sections of version 3 and on (their passages follow); returns how many passages each has. */
function readSections(input: ByteReader, index: PassageIndex, withOrigin = false): number[] {
  const sections = input.uint();
  const sizes: number[] = [];
  for (let id = 0; id < sections; id++) {
    sizes.push(input.uint());
    const path: string[] = [];
    for (let depth = input.uint(); depth > 0; depth--) path.push(input.string());
    const file = input.string();
    const markdown = input.uint() === 1;
    const page = input.uint();
    const documentId = withOrigin ? input.string() : '';
    const url = withOrigin ? input.string() : '';
    index.addSection({
      path,
      markdown,
      ...(file ? { file } : {}),
      ...(documentId ? { documentId } : {}),
      ...(url ? { url } : {}),
      ...(page ? { page } : {}),
    });
  }
  return sizes;
}

/** Sets where each section starts and how many passages it has. */
function sectionsSized(index: PassageIndex, sizes: number[]): void {
  index.sectionSizes.splice(0, index.sectionSizes.length, ...sizes);
  let start = 0;
  sizes.forEach((size, id) => {
    index.sectionStarts[id] = start;
    start += size;
  });
}

/** Version 3: sections, then each passage's fields one passage after another. */
function readVersion3(input: ByteReader): PassageIndex {
  const index = new PassageIndex();
  const sizes = readSections(input, index);
  const { chunks, lines, kinds, texts, lengths, sections } = index.columns;
  let section = 0;
  let left = sizes[0] ?? 0;
  const passages = sizes.reduce((sum, size) => sum + size, 0);
  for (let id = 0; id < passages; id++) {
    while (left === 0) left = sizes[++section];
    left--;
    chunks.push(input.uint());
    lines.push(input.uint());
    const kind = input.uint();
    if (kind >= PASSAGE_KINDS.length) throw new RangeError('passage index damaged');
    kinds.push(kind);
    const length = input.uint();
    lengths.push(length);
    index.totalLength += length;
    texts.push(input.string());
    sections.push(section);
    const flags = input.uint();
    if (flags & HAS_MARKDOWN) index.markdowns.set(id, input.string());
    if (flags & HAS_NAME) index.names.set(id, input.string());
    if (flags & HAS_LANG) index.langs.set(id, input.string());
    if (flags & HAS_PAGE) index.pages.set(id, input.uint());
  }
  sectionsSized(index, sizes);
  readPostingsByTerm(input, index.terms);
  return index;
}

/** Version 2: passages without sections (one section of its own per chunk, no headings). */
function readVersion2(input: ByteReader): PassageIndex {
  const index = new PassageIndex();
  const { chunks, lines, kinds, texts, lengths, sections } = index.columns;
  const passages = input.uint();
  let lastChunk = -1;
  for (let id = 0; id < passages; id++) {
    const chunk = input.uint();
    if (chunk !== lastChunk) {
      index.addSection({ path: [], markdown: false });
      lastChunk = chunk;
    }
    const section = index.sections.length - 1;
    chunks.push(chunk);
    lines.push(input.uint());
    // Version 2 knew two kinds, coded as version 4 codes them.
    const kind = input.uint();
    if (kind > 1) throw new RangeError('passage index damaged');
    kinds.push(kind);
    const length = input.uint();
    lengths.push(length);
    index.totalLength += length;
    texts.push(input.string());
    sections.push(section);
    index.sectionSizes[section]++;
  }
  readPostingsByTerm(input, index.terms);
  return index;
}

/**
 * Version 4: the terms as one text, a line each (a term never holds a line break), the number of
 * postings, then per term its count and (id step, frequency) pairs: read in one pass into one array.
 */
function writePostings(out: ByteWriter, lists: PostingLists): void {
  const entries = [...lists.entries()];
  out.uint(entries.length);
  out.string(entries.map(([term]) => term).join('\n'));
  out.uint(entries.reduce((sum, [, pairs]) => sum + pairs.length / 2, 0));
  for (const [, pairs] of entries) {
    out.uint(pairs.length / 2);
    let previous = 0;
    for (let i = 0; i < pairs.length; i += 2) {
      out.uint(pairs[i] - previous);
      out.uint(pairs[i + 1]);
      previous = pairs[i];
    }
  }
}

function readPostings(input: ByteReader, lists: PostingLists): void {
  const termCount = input.uint();
  const joined = input.string();
  const terms = termCount === 0 ? [] : joined.split('\n');
  if (terms.length !== termCount) throw new RangeError('passage index damaged');
  const data = new Int32Array(2 * input.uint());
  const starts = new Int32Array(termCount + 1);
  let at = 0;
  for (let termId = 0; termId < termCount; termId++) {
    let previous = 0;
    for (let count = input.uint(); count > 0; count--) {
      if (at + 2 > data.length) throw new RangeError('passage index damaged');
      previous += input.uint();
      data[at++] = previous;
      data[at++] = input.uint();
    }
    starts[termId + 1] = at;
  }
  if (at !== data.length) throw new RangeError('passage index damaged');
  lists.load(terms, data, starts);
}

/** Versions 2 and 3: per term its text, its count and its pairs. */
function readPostingsByTerm(input: ByteReader, lists: PostingLists): void {
  const termCount = input.uint();
  const terms: string[] = [];
  const starts = new Int32Array(termCount + 1);
  let data = new Int32Array(1024);
  let at = 0;
  for (let termId = 0; termId < termCount; termId++) {
    terms.push(input.string());
    let previous = 0;
    for (let count = input.uint(); count > 0; count--) {
      if (at + 2 > data.length) {
        const grown = new Int32Array(data.length * 2);
        grown.set(data);
        data = grown;
      }
      previous += input.uint();
      data[at++] = previous;
      data[at++] = input.uint();
    }
    starts[termId + 1] = at;
  }
  lists.load(terms, data.slice(0, at), starts);
}
