import type { BlockKind } from '../documents/types.js';
import { ByteReader, ByteWriter } from '../lm/index.js';
import { PassageIndex } from './passage-index.js';

/**
 * Bumped whenever the terms or the layout change (2: irregular past forms indexed under their base
 * form; 3: sections with heading paths, block kinds and their extras). Version 2 is still read.
 */
const FORMAT_VERSION = 3;
const KINDS: readonly BlockKind[] = ['line', 'paragraph', 'list-item', 'code', 'table-row', 'quote'];
const HAS_MARKDOWN = 1;
const HAS_NAME = 2;
const HAS_LANG = 4;
const HAS_PAGE = 8;

/** The index as bytes (sections, passages, terms, postings), for the model snapshot. */
export function serializePassageIndex(index: PassageIndex): Uint8Array {
  const out = new ByteWriter();
  out.uint(FORMAT_VERSION);
  out.uint(index.sections.length);
  index.sections.forEach((section, id) => {
    out.uint(index.sectionSizes[id]);
    out.uint(section.path.length);
    for (const heading of section.path) out.string(heading);
    out.string(section.file ?? '');
    out.uint(section.markdown ? 1 : 0);
    out.uint(section.page ?? 0);
  });
  for (let id = 0; id < index.size; id++) {
    out.uint(index.chunks[id]);
    out.uint(index.lines[id]);
    out.uint(KINDS.indexOf(index.kinds[id]));
    out.uint(index.lengths[id]);
    out.string(index.texts[id]);
    const markdown = index.markdowns.get(id);
    const name = index.names.get(id);
    const lang = index.langs.get(id);
    const page = index.pages.get(id);
    out.uint(
      (markdown !== undefined ? HAS_MARKDOWN : 0) |
        (name !== undefined ? HAS_NAME : 0) |
        (lang !== undefined ? HAS_LANG : 0) |
        (page !== undefined ? HAS_PAGE : 0),
    );
    if (markdown !== undefined) out.string(markdown);
    if (name !== undefined) out.string(name);
    if (lang !== undefined) out.string(lang);
    if (page !== undefined) out.uint(page);
  }
  writePostings(out, index.termIds, index.postings);
  return out.finish();
}

/** Reads what `serializePassageIndex` wrote; throws on damaged or foreign bytes. */
export function deserializePassageIndex(bytes: Uint8Array): PassageIndex {
  const input = new ByteReader(bytes);
  const version = input.uint();
  if (version === 2) return readVersion2(input);
  if (version !== FORMAT_VERSION) throw new RangeError(`passage index format ${version} is not supported`);
  const index = new PassageIndex();
  const sections = input.uint();
  const sizes: number[] = [];
  for (let id = 0; id < sections; id++) {
    sizes.push(input.uint());
    const path: string[] = [];
    for (let depth = input.uint(); depth > 0; depth--) path.push(input.string());
    const file = input.string();
    const markdown = input.uint() === 1;
    const page = input.uint();
    index.addSection({ path, markdown, ...(file ? { file } : {}), ...(page ? { page } : {}) });
  }
  let section = 0;
  let left = sizes[0] ?? 0;
  const passages = sizes.reduce((sum, size) => sum + size, 0);
  for (let id = 0; id < passages; id++) {
    while (left === 0) left = sizes[++section];
    left--;
    const chunk = input.uint();
    const line = input.uint();
    const kind = KINDS[input.uint()];
    if (!kind) throw new RangeError('passage index damaged');
    const length = input.uint();
    const text = input.string();
    const flags = input.uint();
    index.chunks.push(chunk);
    index.lines.push(line);
    index.kinds.push(kind);
    index.texts.push(text);
    index.lengths.push(length);
    index.totalLength += length;
    index.sectionOf.push(section);
    if (flags & HAS_MARKDOWN) index.markdowns.set(id, input.string());
    if (flags & HAS_NAME) index.names.set(id, input.string());
    if (flags & HAS_LANG) index.langs.set(id, input.string());
    if (flags & HAS_PAGE) index.pages.set(id, input.uint());
  }
  index.sectionSizes.splice(0, index.sectionSizes.length, ...sizes);
  let start = 0;
  sizes.forEach((size, id) => {
    index.sectionStarts[id] = start;
    start += size;
  });
  readPostings(input, index.termIds, index.postings);
  return index;
}

/** Version 2: passages without sections (one section of its own per chunk, no headings). */
function readVersion2(input: ByteReader): PassageIndex {
  const index = new PassageIndex();
  const passages = input.uint();
  let lastChunk = -1;
  for (let id = 0; id < passages; id++) {
    const chunk = input.uint();
    if (chunk !== lastChunk) {
      index.addSection({ path: [], markdown: false });
      lastChunk = chunk;
    }
    const section = index.sections.length - 1;
    index.chunks.push(chunk);
    index.lines.push(input.uint());
    const kind = (['line', 'paragraph'] as const)[input.uint()];
    if (!kind) throw new RangeError('passage index damaged');
    index.kinds.push(kind);
    const length = input.uint();
    index.lengths.push(length);
    index.totalLength += length;
    index.texts.push(input.string());
    index.sectionOf.push(section);
    index.sectionSizes[section]++;
  }
  readPostings(input, index.termIds, index.postings);
  return index;
}

function writePostings(out: ByteWriter, termIds: Map<string, number>, postings: number[][]): void {
  out.uint(postings.length);
  for (const [term, termId] of termIds) {
    const list = postings[termId];
    out.string(term);
    out.uint(list.length / 2);
    let previous = 0;
    for (let i = 0; i < list.length; i += 2) {
      out.uint(list[i] - previous);
      out.uint(list[i + 1]);
      previous = list[i];
    }
  }
}

function readPostings(input: ByteReader, termIds: Map<string, number>, postings: number[][]): void {
  const terms = input.uint();
  for (let termId = 0; termId < terms; termId++) {
    termIds.set(input.string(), termId);
    const count = input.uint();
    const list = new Array<number>(count * 2);
    let previous = 0;
    for (let i = 0; i < count; i++) {
      previous += input.uint();
      list[2 * i] = previous;
      list[2 * i + 1] = input.uint();
    }
    postings.push(list);
  }
}
