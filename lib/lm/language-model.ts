import type { TokenPredictor } from './types.js';
import type { TokenizerMode } from './words/tokenizer.js';
import type { Vocabulary } from './words/vocabulary.js';

/**
 * What serving needs from a model, trained or loaded from ARPA: its vocabulary, a forward
 * predictor, a backward one when the model has it, and how to write a word back out.
 */
export interface LanguageModel {
  readonly order: number;
  readonly tokenizer: TokenizerMode;
  readonly vocabulary: Vocabulary;
  /** Distinct word types learned, not counting `<s>`, `</s>` and `<unk>`. O(1). */
  readonly vocabSize: number;
  /** Tokens learned so far (markers not counted); 0 for a loaded ARPA model. */
  readonly tokenCount: number;
  readonly forward: TokenPredictor;
  /** Predicts a word from the words after it; null when only a forward model exists (ARPA). */
  readonly backward: TokenPredictor | null;
  /** The tokens of a line in the form the model counts them (case-folded in natural mode). */
  tokens(text: string): string[];
  /** The usual surface form of word `id` (casing restored). */
  surfaceForm(id: number): string;
  /** The forward model as an ARPA file. */
  toArpa(): string;
}
