import { COUNT, type NgramCounts } from '../estimation/ngram-counts.js';
import type { NgramModel } from '../ngram-model.js';
import { MARKER_COUNT } from '../words/vocabulary.js';
import { ByteWriter } from './byte-stream.js';
import { SNAPSHOT_MAGIC, SNAPSHOT_VERSION, TOKENIZER_CODES } from './snapshot-format.js';
import { trieOrder } from './trie-order.js';

/**
 * The model's counts as a versioned binary snapshot (layout: `writeCounts`). Everything derived
 * (hash slots, successor chains, context statistics, discounts) is rebuilt on load, so the bytes
 * hold only the vocabulary, the casing tallies and, per direction and order, the trie of
 * adjusted counts in LEB128 varints.
 */
export function writeSnapshot(model: NgramModel): Uint8Array {
  const out = new ByteWriter();
  out.raw(Uint8Array.from(SNAPSHOT_MAGIC));
  out.uint(SNAPSHOT_VERSION);
  out.uint(model.order);
  out.uint(TOKENIZER_CODES.indexOf(model.tokenizer));
  out.uint(model.backwardCounts ? 2 : 1);
  out.uint(model.tokenCount);
  out.uint(model.lineCount);
  const words = model.vocabulary.list();
  out.uint(words.length - MARKER_COUNT);
  for (let id = MARKER_COUNT; id < words.length; id++) out.string(words[id]);
  const rows = [...model.casing.rows()];
  out.uint(rows.length);
  for (const [id, sentenceStart, form, count] of rows) {
    out.uint(id);
    out.uint((sentenceStart ? 1 : 0) | (form === null ? 0 : 2));
    if (form !== null) out.string(form);
    out.uint(count);
  }
  writeCounts(out, model.forwardCounts);
  if (model.backwardCounts) writeCounts(out, model.backwardCounts);
  return out.finish().slice();
}

/**
 * Order 1: its size, then the count of every word id. Order k ≥ 2: its size, then for each entry
 * of order k-1 (in the order written) the number of its successors followed by each successor as
 * (word id minus the previous successor's, count), successors sorted by word id. Entries are
 * renumbered in that order, which is the order the reader recreates them in.
 */
function writeCounts(out: ByteWriter, counts: NgramCounts): void {
  const unigrams = counts.levels[1];
  const wordCount = unigrams.size;
  out.uint(wordCount);
  for (let w = 0; w < wordCount; w++) out.uint(counts.countOf(1, w));
  // Position in the written order of each entry of the order below; unigrams are written by id.
  let rank = Int32Array.from({ length: wordCount }, (_, w) => w);
  let rankCount = wordCount;
  for (let k = 2; k <= counts.order; k++) {
    const level = counts.levels[k];
    const { ids, words, values, starts } = trieOrder(level, rank, rankCount, COUNT);
    out.uint(level.size);
    for (let r = 0; r < rankCount; r++) {
      const end = starts[r + 1];
      out.uint(end - starts[r]);
      let previous = 0;
      for (let i = starts[r]; i < end; i++) {
        out.uint(words[i] - previous);
        previous = words[i];
        out.uint(values[i]);
      }
    }
    if (k < counts.order) {
      rank = new Int32Array(level.size);
      for (let i = 0; i < ids.length; i++) rank[ids[i]] = i;
      rankCount = level.size;
    }
  }
}
