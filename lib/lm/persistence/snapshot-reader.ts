import { NgramModel } from '../ngram-model.js';
import { Vocabulary } from '../words/vocabulary.js';
import { ByteReader } from './byte-stream.js';
import { copyOf, countLoaders, readCounts, truncationReported } from './counts-codec.js';
import {
  READABLE_SNAPSHOT_VERSIONS,
  SNAPSHOT_MAGIC,
  SnapshotFormatError,
  TOKENIZER_CODES,
  WORDS_AS_LINES_VERSION,
} from './snapshot-format.js';

/** Options of `deserializeModel`. */
export interface DeserializeOptions {
  /**
   * Decode the counts (both directions) only when something first reads them
   * (`NgramModel.deferCounts`); the vocabulary and the casing are decoded at once. For bytes whose
   * integrity was checked already: damage in the counts shows only when they are decoded.
   */
  deferCounts?: boolean;
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
    const wordCount = input.uint();
    let words: string[] = [];
    if (version >= WORDS_AS_LINES_VERSION) {
      const text = input.string();
      words = wordCount === 0 ? [] : text.split('\n');
      if (words.length !== wordCount) throw new SnapshotFormatError('corrupt snapshot vocabulary');
    } else for (let n = wordCount; n > 0; n--) words.push(input.string());
    // Decoded strings, not slices of a text: no copies needed.
    const vocabulary = new Vocabulary(words, true);
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
    if (options.deferCounts) {
      model.deferCounts(
        countLoaders(copyOf(bytes.subarray(input.offset)), order, directions, version, roomToGrow),
      );
      return model;
    }
    readCounts(input, model.forwardCounts, version, roomToGrow);
    if (model.backwardCounts) readCounts(input, model.backwardCounts, version, roomToGrow);
    return model;
  });
}
