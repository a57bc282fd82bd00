import { CONTEXT_RECORD, COUNT, FIRST_CHILD, type NgramCounts, WORD } from '../estimation/ngram-counts.js';
import type { CountsLoader, DeferredCountLoaders } from '../ngram-model.js';
import { ByteReader, type ByteWriter } from './byte-stream.js';
import { SnapshotFormatError } from './snapshot-format.js';

/**
 * Loaders of the counts from `rest`, a copy of the bytes of both directions (forward first), kept
 * until both are decoded. Made here rather than inside `deserializeModel`, whose closures share
 * one scope: a loader made there would keep the whole decoded snapshot (model and passages) alive.
 */
export function countLoaders(
  rest: Uint8Array,
  order: number,
  directions: number,
  version: number,
  roomToGrow: boolean,
): DeferredCountLoaders {
  let bytes: Uint8Array | null = rest;
  /** Where the backward counts start, once the forward ones were read or skipped. */
  let backwardAt: number | undefined;
  let pending = directions;
  const done = () => {
    if (--pending === 0) bytes = null;
  };
  const forward = (counts: NgramCounts) =>
    truncationReported(() => {
      const input = new ByteReader(bytes!);
      readCounts(input, counts, version, roomToGrow);
      backwardAt = input.offset;
      done();
    });
  const backward = (counts: NgramCounts) =>
    truncationReported(() => {
      const input = new ByteReader(bytes!);
      if (backwardAt === undefined) skipCounts(input, order);
      else input.offset = backwardAt;
      readCounts(input, counts, version, roomToGrow);
      done();
    });
  const size = rest.byteLength;
  return directions === 2 ? { forward, backward, bytes: size } : { forward, bytes: size };
}

/** Reads past one direction's counts (the layout of `readCounts`, either version) without keeping them. */
export function skipCounts(input: ByteReader, order: number): void {
  let parentCount = input.uint();
  for (let w = 0; w < parentCount; w++) input.uint();
  for (let k = 2; k <= order; k++) {
    const size = input.uint();
    // Version 1 interleaves (delta, count) pairs after each successor count; version 2 writes the
    // successor counts, then the deltas, then the counts: the same number of varints either way.
    for (let n = parentCount + 2 * size; n > 0; n--) input.uint();
    parentCount = size;
  }
}

/**
 * A copy of `bytes` that holds nothing else alive. (`slice` would not do: on a `Buffer`, which is
 * what decompression returns, it makes a view that keeps the whole decompressed snapshot.)
 */
export function copyOf(bytes: Uint8Array): Uint8Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy;
}

/**
 * A loader of one direction's counts from `bytes` (only them, in the layout of `version`).
 * `roomToGrow`: every order gets an eighth more room, so counting what was learned meanwhile does
 * not copy the largest arrays to grow them.
 */
export function countsLoader(bytes: Uint8Array, version: number, roomToGrow: boolean): CountsLoader {
  return (counts) => truncationReported(() => readCounts(new ByteReader(bytes), counts, version, roomToGrow));
}

/** Runs `read`, turning the reader's running out of bytes into a `SnapshotFormatError`. */
export function truncationReported<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RangeError) throw new SnapshotFormatError('snapshot truncated');
    throw error;
  }
}

/** Room for an eighth more entries per order, as training's own growth would leave. */
function capacityFor(size: number, roomToGrow: boolean): number {
  return roomToGrow ? Math.ceil(size * 1.125) : size;
}

/**
 * One direction's counts. Order 1: its size, then each word's count. Order k ≥ 2, version 1: its
 * size, then per entry of order k-1 its successor count followed by (word delta, count) pairs;
 * version 2 and later: its size, then the successor counts of every entry of order k-1, then every entry's
 * word delta, then every entry's count (columns compress better than pairs). Decoded straight
 * into the records the counts keep.
 */
export function readCounts(
  input: ByteReader,
  counts: NgramCounts,
  version: number,
  roomToGrow: boolean,
): void {
  const unigramCount = input.uint();
  const unigrams = counts.levels[1];
  const unigramRecords = new Int32Array(unigrams.recordsFor(capacityFor(unigramCount, roomToGrow)));
  for (let w = 0; w < unigramCount; w++) {
    unigramRecords[w * unigrams.stride + WORD] = w;
    unigramRecords[w * unigrams.stride + COUNT] = input.uint();
  }
  counts.restoreLevel(1, unigramCount, new Int32Array(0), unigramRecords);
  let parentCount = unigramCount;
  for (let k = 2; k <= counts.order; k++) {
    const level = counts.levels[k];
    const stride = level.stride;
    const size = input.uint();
    const successors = new Int32Array(parentCount);
    const records = new Int32Array(level.recordsFor(capacityFor(size, roomToGrow)));
    const interleaved = version === 1;
    let id = 0;
    for (let parent = 0; parent < parentCount; parent++) {
      const n = input.uint();
      if (id + n > size) throw new SnapshotFormatError(`order ${k} holds more entries than declared`);
      successors[parent] = n;
      if (interleaved) {
        let word = -1;
        for (let i = 0; i < n; i++) {
          word = nextWord(input, word, unigramCount, k);
          records[id * stride + WORD] = word;
          records[id * stride + COUNT] = input.uint();
          id++;
        }
      } else id += n;
    }
    if (id !== size) throw new SnapshotFormatError(`order ${k} holds fewer entries than declared`);
    if (!interleaved) {
      id = 0;
      for (let parent = 0; parent < parentCount; parent++) {
        let word = -1;
        for (let end = id + successors[parent]; id < end; id++) {
          word = nextWord(input, word, unigramCount, k);
          records[id * stride + WORD] = word;
        }
      }
      for (id = 0; id < size; id++) records[id * stride + COUNT] = input.uint();
    }
    counts.restoreLevel(k, size, successors, records);
    parentCount = size;
  }
}

/** The next successor's word from its delta to `word` (-1 before the first of a run). */
function nextWord(input: ByteReader, word: number, unigramCount: number, k: number): number {
  const delta = input.uint();
  if (delta === 0 && word >= 0) throw new SnapshotFormatError(`order ${k} repeats a word`);
  const next = Math.max(word, 0) + delta;
  if (next >= unigramCount) throw new SnapshotFormatError(`order ${k} holds an unknown word`);
  return next;
}

/**
 * Order 1: its size, then the count of every word id. Order k ≥ 2: its size, then for each entry
 * of order k-1 (in the order written) the number of its successors, then every successor's word id
 * minus the previous successor's of the same run (successors sorted by word id), then every
 * successor's count. That is the trie order the counts are kept in, so the reader recreates the
 * same entry ids; columns of alike numbers compress better than (word, count) pairs did (version 1).
 */
export function writeCounts(out: ByteWriter, counts: NgramCounts): void {
  counts.compact();
  const unigrams = counts.levels[1];
  out.uint(unigrams.size);
  for (let w = 0; w < unigrams.size; w++) out.uint(unigrams.entries[w * unigrams.stride + COUNT]);
  for (let k = 2; k <= counts.order; k++) {
    const level = counts.levels[k];
    const parent = counts.levels[k - 1];
    const contexts = parent.contexts!;
    const entries = level.entries;
    const stride = level.stride;
    out.uint(level.size);
    for (let p = 0; p < parent.size; p++) {
      out.uint(contexts[(p + 1) * CONTEXT_RECORD + FIRST_CHILD] - contexts[p * CONTEXT_RECORD + FIRST_CHILD]);
    }
    for (let p = 0; p < parent.size; p++) {
      const end = contexts[(p + 1) * CONTEXT_RECORD + FIRST_CHILD];
      let previous = 0;
      for (let id = contexts[p * CONTEXT_RECORD + FIRST_CHILD]; id < end; id++) {
        const word = entries[id * stride + WORD];
        out.uint(word - previous);
        previous = word;
      }
    }
    for (let id = 0; id < level.size; id++) out.uint(entries[id * stride + COUNT]);
  }
}
