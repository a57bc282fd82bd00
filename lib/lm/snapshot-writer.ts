import { ByteWriter } from './byte-stream';
import type { NgramCounts } from './ngram-counts';
import type { NgramModel } from './ngram-model';
import { SNAPSHOT_MAGIC, SNAPSHOT_VERSION, TOKENIZER_CODES } from './snapshot-format';
import { MARKER_COUNT } from './vocabulary';

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
  out.uint(unigrams.size);
  for (let w = 0; w < unigrams.size; w++) out.uint(counts.countOf(1, w));
  let parents = Int32Array.from({ length: unigrams.size }, (_, w) => w);
  let children: Float64Array = new Float64Array(1024);
  for (let k = 2; k <= counts.order; k++) {
    const level = counts.levels[k];
    const firstChild = counts.levels[k - 1].firstChild!;
    const written = new Int32Array(level.size);
    let next = 0;
    out.uint(level.size);
    for (const parent of parents) {
      // Successors packed as word·2^31 + id, so sorting the numbers sorts by word.
      let n = 0;
      for (let id = firstChild[parent]; id >= 0; id = level.nextSibling[id]) {
        if (n === children.length) children = growFloat64(children);
        children[n++] = level.wordOf(id) * ID_SPAN + id;
      }
      if (n > 1) children.subarray(0, n).sort();
      out.uint(n);
      let previous = 0;
      for (let i = 0; i < n; i++) {
        const id = children[i] % ID_SPAN;
        const word = (children[i] - id) / ID_SPAN;
        out.uint(word - previous);
        previous = word;
        out.uint(counts.countOf(k, id));
        written[next++] = id;
      }
    }
    parents = written;
  }
}

const ID_SPAN = 2 ** 31;

function growFloat64(array: Float64Array): Float64Array {
  const grown = new Float64Array(array.length * 2);
  grown.set(array);
  return grown;
}
