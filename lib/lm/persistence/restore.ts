import type { NgramModel } from '../ngram-model.js';
import { deserializeModel } from './snapshot-reader.js';

/**
 * A cold start: the model of a snapshot with the training chunks stored after it replayed on
 * top, ready to answer.
 */
export function restoreModel(snapshot: Uint8Array, tail: Iterable<string> = []): NgramModel {
  const chunks = [...tail];
  const model = deserializeModel(snapshot, { roomToGrow: chunks.length > 0 });
  for (const chunk of chunks) model.addText(chunk);
  return model;
}
