import type { NgramCounts } from '../estimation/ngram-counts.js';
import { NgramModel } from '../ngram-model.js';
import { Vocabulary } from '../words/vocabulary.js';
import { ByteReader } from './byte-stream.js';
import { SNAPSHOT_MAGIC, SNAPSHOT_VERSION, SnapshotFormatError, TOKENIZER_CODES } from './snapshot-format.js';

/** Options of `deserializeModel`. */
export interface DeserializeOptions {
  /**
   * Decode the backward counts only when something first reads them (`NgramModel.deferBackward`).
   * For bytes whose integrity was checked already: damage there shows only when they are decoded.
   */
  deferBackward?: boolean;
}

/** A trainable model restored from `model.serialize()` bytes; training can continue on it. */
export function deserializeModel(bytes: Uint8Array, options: DeserializeOptions = {}): NgramModel {
  const input = new ByteReader(bytes);
  return truncationReported(() => {
    const magic = input.raw(SNAPSHOT_MAGIC.length);
    if (!SNAPSHOT_MAGIC.every((byte, i) => magic[i] === byte))
      throw new SnapshotFormatError('not a model snapshot');
    const version = input.uint();
    if (version !== SNAPSHOT_VERSION)
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
    readCounts(input, model.forwardCounts);
    if (directions === 2 && options.deferBackward) {
      // A copy, so the rest of the decoded buffer is not kept alive until then.
      const rest = bytes.slice(input.offset);
      model.deferBackward((counts) => truncationReported(() => readCounts(new ByteReader(rest), counts)));
    } else if (model.backwardCounts) readCounts(input, model.backwardCounts);
    return model;
  });
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

function readCounts(input: ByteReader, counts: NgramCounts): void {
  const unigramCount = input.uint();
  const values = new Int32Array(unigramCount);
  for (let w = 0; w < unigramCount; w++) values[w] = input.uint();
  counts.restoreLevel(1, unigramCount, values, values, values);
  let parentCount = unigramCount;
  for (let k = 2; k <= counts.order; k++) {
    const size = input.uint();
    const successors = new Int32Array(parentCount);
    const words = new Int32Array(size);
    const entryCounts = new Int32Array(size);
    let id = 0;
    for (let parent = 0; parent < parentCount; parent++) {
      let word = -1;
      const n = input.uint();
      if (id + n > size) throw new SnapshotFormatError(`order ${k} holds more entries than declared`);
      successors[parent] = n;
      for (let i = 0; i < n; i++) {
        const delta = input.uint();
        if (delta === 0 && word >= 0) throw new SnapshotFormatError(`order ${k} repeats a word`);
        word = Math.max(word, 0) + delta;
        if (word >= unigramCount) throw new SnapshotFormatError(`order ${k} holds an unknown word`);
        words[id] = word;
        entryCounts[id] = input.uint();
        id++;
      }
    }
    if (id !== size) throw new SnapshotFormatError(`order ${k} holds fewer entries than declared`);
    counts.restoreLevel(k, size, successors, words, entryCounts);
    parentCount = size;
  }
}
