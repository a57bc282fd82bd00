import { CONTEXT_RECORD, COUNT, FIRST_CHILD, type NgramCounts, WORD } from '../estimation/ngram-counts.js';
import type { NgramModel } from '../ngram-model.js';
import { MARKER_COUNT } from '../words/vocabulary.js';
import { ByteWriter } from './byte-stream.js';
import { SNAPSHOT_MAGIC, SNAPSHOT_VERSION, TOKENIZER_CODES } from './snapshot-format.js';

/**
 * The model's counts as a versioned binary snapshot (layout: `writeCounts`). Everything derived
 * (hash slots, successor chains, context statistics, discounts) is rebuilt on load, so the bytes
 * hold only the vocabulary, the casing tallies and, per direction and order, the trie of
 * adjusted counts in LEB128 varints.
 */
export function writeSnapshot(model: NgramModel): Uint8Array {
  // A view of the writer's buffer, which may be up to half again as large: callers that keep it copy it.
  const out = new ByteWriter(expectedBytes(model));
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
  return out.finish();
}

/** Bytes measured per entry of the counts (KJV, Vim help, READMEs) plus the words: a little over. */
const BYTES_PER_ENTRY = 3.4;

/** About what `writeSnapshot` will write, so its buffer starts large enough. */
function expectedBytes(model: NgramModel): number {
  let entries = 0;
  for (const counts of [model.forwardCounts, model.backwardCounts]) {
    if (counts) for (let k = 1; k <= counts.order; k++) entries += counts.levels[k].size;
  }
  return 1024 + model.vocabulary.size * 12 + entries * BYTES_PER_ENTRY;
}

/**
 * Order 1: its size, then the count of every word id. Order k ≥ 2: its size, then for each entry
 * of order k-1 (in the order written) the number of its successors, then every successor's word id
 * minus the previous successor's of the same run (successors sorted by word id), then every
 * successor's count. That is the trie order the counts are kept in, so the reader recreates the
 * same entry ids; columns of alike numbers compress better than (word, count) pairs did (version 1).
 */
function writeCounts(out: ByteWriter, counts: NgramCounts): void {
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
