import { COUNT, type NgramCounts, WORD } from '../estimation/ngram-counts.js';
import { NgramModel } from '../ngram-model.js';
import { Vocabulary } from '../words/vocabulary.js';
import { ByteReader } from './byte-stream.js';
import {
  READABLE_SNAPSHOT_VERSIONS,
  SNAPSHOT_MAGIC,
  SnapshotFormatError,
  TOKENIZER_CODES,
} from './snapshot-format.js';

/** Options of `deserializeModel`. */
export interface DeserializeOptions {
  /**
   * Decode the backward counts only when something first reads them (`NgramModel.deferBackward`).
   * For bytes whose integrity was checked already: damage there shows only when they are decoded.
   */
  deferBackward?: boolean;
  /** Leave room for more entries in every order: a tail of training is about to be replayed. */
  roomToGrow?: boolean;
}

/** A trainable model restored from `model.serialize()` bytes; training can continue on it. */
export function deserializeModel(bytes: Uint8Array, options: DeserializeOptions = {}): NgramModel {
  const input = new ByteReader(bytes);
  return truncationReported(() => {
    const magic = input.raw(SNAPSHOT_MAGIC.length);
    if (!SNAPSHOT_MAGIC.every((byte, i) => magic[i] === byte))
      throw new SnapshotFormatError('not a model snapshot');
    const version = input.uint();
    if (!READABLE_SNAPSHOT_VERSIONS.includes(version))
      throw new SnapshotFormatError(`unsupported snapshot version ${version}`);
    const order = input.uint();
    const tokenizer = TOKENIZER_CODES[input.uint()];
    const directions = input.uint();
    if (order < 1 || !tokenizer || (directions !== 1 && directions !== 2)) {
      throw new SnapshotFormatError('corrupt snapshot header');
    }
    const tokenCount = input.uint();
    const lineCount = input.uint();
    const words: string[] = [];
    for (let n = input.uint(); n > 0; n--) words.push(input.string());
    const vocabulary = new Vocabulary(words);
    const model = new NgramModel(
      { order, tokenizer, directions: directions === 2 ? 'both' : 'forward' },
      vocabulary,
    );
    model.tokenCount = tokenCount;
    model.lineCount = lineCount;
    for (let n = input.uint(); n > 0; n--) {
      const id = input.uint();
      const flags = input.uint();
      const form = flags & 2 ? input.string() : null;
      model.casing.restoreRow(id, (flags & 1) === 1, form, input.uint(), vocabulary.word(id));
    }
    const roomToGrow = options.roomToGrow ?? false;
    readCounts(input, model.forwardCounts, version, roomToGrow);
    if (directions === 2 && options.deferBackward) {
      model.deferBackward(backwardLoader(bytes.slice(input.offset), version, roomToGrow));
    } else if (model.backwardCounts) readCounts(input, model.backwardCounts, version, roomToGrow);
    return model;
  });
}

/**
 * Decodes the backward counts later from `rest`, a copy of them. Made here rather than inside
 * `deserializeModel`, whose closures share one scope: a loader made there would keep the whole
 * decoded snapshot (model and passages) alive until the backward model is first read.
 */
function backwardLoader(
  rest: Uint8Array,
  version: number,
  roomToGrow: boolean,
): (counts: NgramCounts) => void {
  return (counts) => truncationReported(() => readCounts(new ByteReader(rest), counts, version, roomToGrow));
}

/** Runs `read`, turning the reader's running out of bytes into a `SnapshotFormatError`. */
function truncationReported<T>(read: () => T): T {
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
 * version 2: its size, then the successor counts of every entry of order k-1, then every entry's
 * word delta, then every entry's count (columns compress better than pairs). Decoded straight
 * into the records the counts keep.
 */
function readCounts(input: ByteReader, counts: NgramCounts, version: number, roomToGrow: boolean): void {
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
