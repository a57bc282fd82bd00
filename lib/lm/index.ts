export { ArpaFormatError, ArpaModel, type ArpaOptions, loadArpa } from './arpa-model';
export { formatArpaNumber } from './arpa-writer';
export { type ContextState, createContextState } from './context-state';
export type { LanguageModel } from './language-model';
export { type ModelOptions, NgramModel, type TrainingResult } from './ngram-model';
export { restoreModel } from './restore';
export { sampleToken } from './sampling';
export { evaluatePerplexity, type PerplexityReport, scoreLine } from './scoring';
export { SnapshotFormatError } from './snapshot-format';
export { deserializeModel } from './snapshot-reader';
export { TokenDistribution } from './token-distribution';
export { detokenize, endsSentence, foldCase, type TokenizerMode, tokenize } from './tokenizer';
export type { LineScore, TokenPredictor } from './types';
export { BOS, EOS, UNK, Vocabulary } from './vocabulary';

import { type ModelOptions, NgramModel } from './ngram-model';

/** A new, empty trainable model (order 4, natural tokenizer, both directions unless told). */
export function createModel(options: ModelOptions = {}): NgramModel {
  return new NgramModel(options);
}
