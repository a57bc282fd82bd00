import { ByteReader, ByteWriter } from '../lm/index.js';
import { PassageIndex } from './passage-index.js';

/** Bumped whenever the terms change (2: irregular past forms indexed under their base form). */
const FORMAT_VERSION = 2;
const LAYOUTS = ['line', 'paragraph'] as const;

/** The index as bytes (passages, terms, postings), for the model snapshot. */
export function serializePassageIndex(index: PassageIndex): Uint8Array {
  const out = new ByteWriter();
  out.uint(FORMAT_VERSION);
  out.uint(index.size);
  for (let id = 0; id < index.size; id++) {
    out.uint(index.chunks[id]);
    out.uint(index.lines[id]);
    out.uint(LAYOUTS.indexOf(index.layouts[id]));
    out.uint(index.lengths[id]);
    out.string(index.texts[id]);
  }
  out.uint(index.postings.length);
  for (const [term, termId] of index.termIds) {
    const list = index.postings[termId];
    out.string(term);
    out.uint(list.length / 2);
    let previous = 0;
    for (let i = 0; i < list.length; i += 2) {
      out.uint(list[i] - previous);
      out.uint(list[i + 1]);
      previous = list[i];
    }
  }
  return out.finish();
}

/** Reads what `serializePassageIndex` wrote; throws on damaged or foreign bytes. */
export function deserializePassageIndex(bytes: Uint8Array): PassageIndex {
  const input = new ByteReader(bytes);
  const version = input.uint();
  if (version !== FORMAT_VERSION) throw new RangeError(`passage index format ${version} is not supported`);
  const index = new PassageIndex();
  const passages = input.uint();
  for (let id = 0; id < passages; id++) {
    index.chunks.push(input.uint());
    index.lines.push(input.uint());
    const layout = LAYOUTS[input.uint()];
    if (!layout) throw new RangeError('passage index damaged');
    index.layouts.push(layout);
    const length = input.uint();
    index.lengths.push(length);
    index.totalLength += length;
    index.texts.push(input.string());
  }
  const terms = input.uint();
  for (let termId = 0; termId < terms; termId++) {
    index.termIds.set(input.string(), termId);
    const count = input.uint();
    const list = new Array<number>(count * 2);
    let previous = 0;
    for (let i = 0; i < count; i++) {
      previous += input.uint();
      list[2 * i] = previous;
      list[2 * i + 1] = input.uint();
    }
    index.postings.push(list);
  }
  return index;
}
