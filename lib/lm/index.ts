export { ArpaFormatError, ArpaModel, type ArpaOptions, loadArpa } from './arpa-model.js';
export { formatArpaNumber } from './arpa-writer.js';
export { type ContextState, createContextState } from './context-state.js';
export type { LanguageModel } from './language-model.js';
export { type ModelOptions, NgramModel, type TrainingResult } from './ngram-model.js';
export { restoreModel } from './restore.js';
export { sampleToken } from './sampling.js';
export { evaluatePerplexity, type PerplexityReport, scoreLine } from './scoring.js';
export { SnapshotFormatError } from './snapshot-format.js';
export { deserializeModel } from './snapshot-reader.js';
export { TokenDistribution } from './token-distribution.js';
export { detokenize, endsSentence, foldCase, type TokenizerMode, tokenize } from './tokenizer.js';
export type { LineScore, TokenPredictor } from './types.js';
export { BOS, EOS, UNK, Vocabulary } from './vocabulary.js';

import { type ModelOptions, NgramModel } from './ngram-model.js';

/** A new, empty trainable model (order 4, natural tokenizer, both directions unless told). */
export function createModel(options: ModelOptions = {}): NgramModel {
  return new NgramModel(options);
}
