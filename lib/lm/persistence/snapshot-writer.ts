import type { NgramModel } from '../ngram-model.js';
import { MARKER_COUNT } from '../words/vocabulary.js';
import { ByteWriter } from './byte-stream.js';
import { copyOf, countsLoader, writeCounts } from './counts-codec.js';
import { SNAPSHOT_MAGIC, SNAPSHOT_VERSION, TOKENIZER_CODES } from './snapshot-format.js';

/** Options of a snapshot write. */
export interface SnapshotWriteOptions {
  /**
   * After writing a direction's counts, leave them encoded in the model (as the bytes just
   * written, `NgramModel.encodeCounts`): one direction is decoded at a time, and the model keeps
   * a few bytes an n-gram until something reads the counts again.
   */
  encodeAfter?: boolean;
}

/**
 * The model's counts as a versioned binary snapshot (layout: `writeCounts`). Everything derived
 * (hash slots, successor chains, context statistics, discounts) is rebuilt on load, so the bytes
 * hold only the vocabulary, the casing tallies and, per direction and order, the trie of
 * adjusted counts in LEB128 varints. Returns a view of the writer's buffer, which may be up to
 * half again as large: callers that keep it copy it.
 */
export function writeSnapshot(model: NgramModel, options: SnapshotWriteOptions = {}): Uint8Array {
  return allSteps(snapshotWriteSteps(model, options));
}

/** Runs steps made to be spread over event-loop turns all at once, and returns what they make. */
export function allSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `writeSnapshot` in steps, for a caller that lets other work run between them: the words, then
 * each direction's counts (decoded first when they wait encoded). The model must not learn
 * anything until the last step is done.
 */
export function* snapshotWriteSteps(
  model: NgramModel,
  options: SnapshotWriteOptions = {},
): Generator<void, Uint8Array, void> {
  const out = new ByteWriter(expectedBytes(model));
  out.raw(Uint8Array.from(SNAPSHOT_MAGIC));
  out.uint(SNAPSHOT_VERSION);
  out.uint(model.order);
  out.uint(TOKENIZER_CODES.indexOf(model.tokenizer));
  out.uint(model.directions.length);
  out.uint(model.tokenCount);
  out.uint(model.lineCount);
  const words = model.vocabulary.list();
  out.uint(words.length - MARKER_COUNT);
  out.string(words.slice(MARKER_COUNT).join('\n'));
  const rows = [...model.casing.rows()];
  out.uint(rows.length);
  for (const [id, sentenceStart, form, count] of rows) {
    out.uint(id);
    out.uint((sentenceStart ? 1 : 0) | (form === null ? 0 : 2));
    if (form !== null) out.string(form);
    out.uint(count);
  }
  for (const direction of model.directions) {
    yield;
    const start = out.written;
    writeCounts(out, model.countsOf(direction));
    // With room to grow: the instance that writes snapshots is the one that goes on training.
    if (options.encodeAfter)
      model.encodeCounts(
        direction,
        countsLoader(copyOf(out.since(start)), SNAPSHOT_VERSION, true),
        out.written - start,
      );
  }
  return out.finish();
}

/** About what `writeSnapshot` will write, so its buffer starts large enough. */
function expectedBytes(model: NgramModel): number {
  let bytes = 1024 + model.vocabulary.size * 12;
  for (const direction of model.directions) bytes += model.countsBytesAbout(direction);
  return bytes;
}
