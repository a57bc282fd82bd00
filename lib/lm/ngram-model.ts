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
 * The backward counts of a snapshot while they wait to be decoded: how to load them, and the
 * sentences learned since (reversed), one list per `addText` call, so the replay compacts where
 * training did and the counts come out the same.
 */
interface DeferredCounts {
  load(counts: NgramCounts): void;
  learned: Int32Array[][];
}

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
  readonly forward: KneserNeyEstimator;
  tokenCount = 0;
  lineCount = 0;
  private backwardCountsLoaded: NgramCounts | null;
  private backwardLoaded: KneserNeyEstimator | null;
  private deferredBackward: DeferredCounts | null = null;

  constructor(options: ModelOptions = {}, vocabulary = new Vocabulary()) {
    this.order = options.order ?? 4;
    this.tokenizer = options.tokenizer ?? 'natural';
    this.vocabulary = vocabulary;
    this.forwardCounts = new NgramCounts(this.order);
    this.forward = new KneserNeyEstimator(this.forwardCounts);
    const both = (options.directions ?? 'both') === 'both';
    this.backwardCountsLoaded = both ? new NgramCounts(this.order) : null;
    this.backwardLoaded = this.backwardCountsLoaded
      ? new KneserNeyEstimator(this.backwardCountsLoaded)
      : null;
  }

  /** The counts of the backward model (null for a forward-only model); decoded on first use after a restore. */
  get backwardCounts(): NgramCounts | null {
    this.loadBackward();
    return this.backwardCountsLoaded;
  }

  /** The backward model replies grow leftwards with (null for a forward-only model). */
  get backward(): KneserNeyEstimator | null {
    this.loadBackward();
    return this.backwardLoaded;
  }

  /** True while the backward counts of a snapshot wait to be decoded (nothing has needed them yet). */
  get backwardDeferred(): boolean {
    return this.deferredBackward !== null;
  }

  /**
   * Leaves the backward counts to `load`, run the first time anything reads them: a cold start
   * answers from the forward model and the passages before it pays for the backward one. Only for
   * a freshly restored two-direction model, before any training.
   */
  deferBackward(load: (counts: NgramCounts) => void): void {
    if (!this.backwardCountsLoaded) return;
    if (this.backwardCountsLoaded.version !== 0)
      throw new Error('deferBackward: the backward counts are not empty');
    this.deferredBackward = { load, learned: [] };
  }

  private loadBackward(): void {
    const deferred = this.deferredBackward;
    if (deferred === null) return;
    const counts = new NgramCounts(this.order);
    deferred.load(counts);
    for (const sentences of deferred.learned) {
      for (const ids of sentences) counts.addSentence(ids);
      this.compactIfLarge(counts);
    }
    this.backwardCountsLoaded = counts;
    this.backwardLoaded = new KneserNeyEstimator(counts);
    this.deferredBackward = null;
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
    const deferred = this.deferredBackward;
    const learnedBackward: Int32Array[] = [];
    for (const line of this.sentencesOf(text)) {
      const surface = tokenize(line, this.tokenizer).filter((token) => !Vocabulary.isMarker(token));
      if (surface.length === 0) continue;
      const folded = surface.map((token) => foldCase(token, this.tokenizer));
      const ids = new Int32Array(folded.length);
      for (let i = 0; i < folded.length; i++) ids[i] = this.vocabulary.intern(folded[i]);
      if (this.tokenizer === 'natural') this.casing.observe(surface, folded, ids);
      this.forwardCounts.addSentence(ids);
      if (deferred) learnedBackward.push(ids.reverse());
      else this.backwardCountsLoaded?.addSentence(ids.reverse());
      tokens += ids.length;
      lines++;
    }
    this.tokenCount += tokens;
    this.lineCount += lines;
    this.compactIfLarge(this.forwardCounts);
    if (deferred) deferred.learned.push(learnedBackward);
    else if (this.backwardCountsLoaded) this.compactIfLarge(this.backwardCountsLoaded);
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

  /**
   * Brings the model to its steady state, what a server does once training goes quiet: decodes
   * the backward counts if a restore left them waiting, and merges the n-grams waiting beside the
   * sorted counts into them, so queries and sampling read the sorted arrays alone. Probabilities
   * are unchanged.
   */
  settle(): void {
    this.loadBackward();
    this.forwardCounts.compact();
    this.backwardCountsLoaded?.compact();
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
    return writeSnapshot(this).slice();
  }

  /** The bytes of `serialize` as a view of the writer's buffer (no copy), for a caller that only reads them. */
  serializeView(): Uint8Array {
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
