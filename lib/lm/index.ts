export type { LanguageModel } from './language-model.js';
export { type Direction, type ModelOptions, NgramModel, type TrainingResult } from './ngram-model.js';
export { ArpaFormatError, ArpaModel, type ArpaOptions, loadArpa } from './persistence/arpa-model.js';
export { formatArpaNumber } from './persistence/arpa-writer.js';
export { ByteReader, ByteWriter } from './persistence/byte-stream.js';
export { restoreModel } from './persistence/restore.js';
export { SnapshotFormatError } from './persistence/snapshot-format.js';
export { type DeserializeOptions, deserializeModel } from './persistence/snapshot-reader.js';
export { allSteps, type SnapshotWriteOptions, snapshotWriteSteps } from './persistence/snapshot-writer.js';
export { type ContextState, createContextState } from './querying/context-state.js';
export { evaluatePerplexity, type PerplexityReport, scoreLine } from './querying/scoring.js';
export { sampleToken } from './sampling/sampling.js';
export { TokenDistribution } from './sampling/token-distribution.js';
export type { LineScore, TokenPredictor } from './types.js';
export { detokenize, endsSentence, foldCase, type TokenizerMode, tokenize } from './words/tokenizer.js';
export { usuallyCapitalised } from './words/usually-capitalised.js';
export { BOS, EOS, ownCopy, UNK, Vocabulary } from './words/vocabulary.js';

import { type ModelOptions, NgramModel } from './ngram-model.js';

/** A new, empty trainable model (order 4, natural tokenizer, both directions unless told). */
export function createModel(options: ModelOptions = {}): NgramModel {
  return new NgramModel(options);
}
