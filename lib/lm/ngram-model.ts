import { segmentText } from '../text/index.js';
import { KneserNeyEstimator } from './estimation/kneser-ney.js';
import { NgramCounts } from './estimation/ngram-counts.js';
import type { LanguageModel } from './language-model.js';
import { toArpa } from './persistence/arpa-writer.js';
import { writeSnapshot } from './persistence/snapshot-writer.js';
import { SurfaceCasing } from './words/surface-casing.js';
import { foldCase, type TokenizerMode, tokenize } from './words/tokenizer.js';
import { MARKER_COUNT, Vocabulary } from './words/vocabulary.js';

/** Options of a trainable model. */
export interface ModelOptions {
  /** Highest n-gram order, default 4. */
  order?: number;
  /** How text is split into tokens, default `natural`. */
  tokenizer?: TokenizerMode;
  /** `both` (default) also trains the backward model replies grow leftwards with. */
  directions?: 'both' | 'forward';
}

/** What one `addText` call learned. */
export interface TrainingResult {
  /** Tokens learned (markers not counted). */
  tokens: number;
  /** Sentences learned: a line each in a one-unit-a-line text, the real sentences of wrapped prose. */
  lines: number;
}

const LINE_BREAK = /\r?\n/;

/**
 * A Kneser-Ney n-gram model trained incrementally: every `addText` adds its sentences to the counts of the forward model and, unless disabled, of the backward model (the same
 * sentences reversed), and probabilities reflect all text so far.
 */
export class NgramModel implements LanguageModel {
  readonly order: number;
  readonly tokenizer: TokenizerMode;
  readonly vocabulary: Vocabulary;
  readonly casing = new SurfaceCasing();
  readonly forwardCounts: NgramCounts;
  readonly backwardCounts: NgramCounts | null;
  readonly forward: KneserNeyEstimator;
  readonly backward: KneserNeyEstimator | null;
  tokenCount = 0;
  lineCount = 0;

  constructor(options: ModelOptions = {}, vocabulary = new Vocabulary()) {
    this.order = options.order ?? 4;
    this.tokenizer = options.tokenizer ?? 'natural';
    this.vocabulary = vocabulary;
    this.forwardCounts = new NgramCounts(this.order);
    this.forward = new KneserNeyEstimator(this.forwardCounts);
    const both = (options.directions ?? 'both') === 'both';
    this.backwardCounts = both ? new NgramCounts(this.order) : null;
    this.backward = this.backwardCounts ? new KneserNeyEstimator(this.backwardCounts) : null;
  }

  get vocabSize(): number {
    return this.vocabulary.size - MARKER_COUNT;
  }

  /**
   * Learns `text`. Natural text is segmented as a reader would: a hard-wrapped paragraph is one
   * piece of text whose sentences are learned, otherwise each line is a sentence. Pretokenized
   * (`whitespace`) text is one sentence a line, as KenLM reads it.
   */
  addText(text: string): TrainingResult {
    let tokens = 0;
    let lines = 0;
    for (const line of this.sentencesOf(text)) {
      const surface = tokenize(line, this.tokenizer).filter((token) => !Vocabulary.isMarker(token));
      if (surface.length === 0) continue;
      const folded = surface.map((token) => foldCase(token, this.tokenizer));
      const ids = new Int32Array(folded.length);
      for (let i = 0; i < folded.length; i++) ids[i] = this.vocabulary.intern(folded[i]);
      if (this.tokenizer === 'natural') this.casing.observe(surface, folded, ids);
      this.forwardCounts.addSentence(ids);
      this.backwardCounts?.addSentence(ids.reverse());
      tokens += ids.length;
      lines++;
    }
    this.tokenCount += tokens;
    this.lineCount += lines;
    this.compactIfLarge(this.forwardCounts);
    if (this.backwardCounts) this.compactIfLarge(this.backwardCounts);
    return { tokens, lines };
  }

  private sentencesOf(text: string): string[] {
    if (this.tokenizer === 'whitespace') return text.split(LINE_BREAK);
    return segmentText(text).flatMap((unit) => unit.sentences);
  }

  /**
   * New n-grams wait in a hash beside the sorted counts (queries read both); once they are a
   * quarter of the sorted ones they are merged in, so a large text does not leave its hash behind
   * and merging costs stay proportional to what was added.
   */
  private compactIfLarge(counts: NgramCounts): void {
    let sorted = 0;
    for (let k = 1; k <= counts.order; k++) sorted += counts.levels[k].sorted;
    if (counts.pendingEntries * 4 > sorted) counts.compact();
  }

  tokens(text: string): string[] {
    const tokens = tokenize(text, this.tokenizer);
    return this.tokenizer === 'whitespace' ? tokens : tokens.map((token) => foldCase(token, this.tokenizer));
  }

  surfaceForm(id: number): string {
    const folded = this.vocabulary.word(id);
    return this.tokenizer === 'natural' ? this.casing.restore(id, folded) : folded;
  }

  /** A compact binary snapshot of everything learned; `deserializeModel` continues from it. */
  serialize(): Uint8Array {
    return writeSnapshot(this);
  }

  toArpa(): string {
    return toArpa(this.forward, this.vocabulary);
  }

  /** Bytes held by the typed arrays of the counts (pending n-grams sorted in first). */
  get byteLength(): number {
    this.forwardCounts.compact();
    this.backwardCounts?.compact();
    return this.forwardCounts.byteLength + (this.backwardCounts?.byteLength ?? 0);
  }
}
