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

/** Decodes one direction's counts of a snapshot into `counts` (empty, of the model's order). */
export type CountsLoader = (counts: NgramCounts) => void;

/** The loaders of a restored model's counts, per direction (no backward loader: a forward-only model). */
export interface DeferredCountLoaders {
  forward: CountsLoader;
  backward?: CountsLoader;
  /** Bytes of the encoded counts of both directions. */
  bytes: number;
}

/** A direction of the model. */
export type Direction = 'forward' | 'backward';

/** Separates the sentences of one `addText` call in `learned` while counts wait to be decoded. */
const SENTENCE_END = -1;

/**
 * One direction's counts: decoded (`counts`, `estimator`) or encoded (`load` set: how to decode
 * them, and `replayFrom`, the first entry of the model's `learned` they do not hold yet).
 */
interface CountsSlot {
  counts: NgramCounts;
  estimator: KneserNeyEstimator;
  load: CountsLoader | null;
  replayFrom: number;
  /** Bytes of the encoded counts (0 when unknown). */
  encodedBytes: number;
}

function decodedSlot(order: number): CountsSlot {
  const counts = new NgramCounts(order);
  return { counts, estimator: new KneserNeyEstimator(counts), load: null, replayFrom: 0, encodedBytes: 0 };
}

/** Bytes a snapshot takes per entry of the counts (KJV, Vim help, READMEs): a little over. */
const SNAPSHOT_BYTES_PER_ENTRY = 3.4;

/**
 * A Kneser-Ney n-gram model trained incrementally: every `addText` adds its sentences to the
 * counts of the forward model and, unless disabled, of the backward model (the same sentences
 * reversed), and probabilities reflect all text so far.
 *
 * Each direction's counts may also wait encoded (`deferCounts` after a restore, `encodeCounts`
 * after a snapshot is written): answering from passages needs only the vocabulary and the casing,
 * so an instance that never generates text never decodes them, and holds a few bytes an n-gram
 * instead of 8 to 32. Text learned meanwhile is kept as word ids (`learned`) and counted when the
 * direction is decoded.
 */
export class NgramModel implements LanguageModel {
  readonly order: number;
  readonly tokenizer: TokenizerMode;
  readonly vocabulary: Vocabulary;
  readonly casing = new SurfaceCasing();
  tokenCount = 0;
  lineCount = 0;
  private readonly forwardSlot: CountsSlot;
  private readonly backwardSlot: CountsSlot | null;
  /**
   * The word ids of the sentences learned while a direction waits encoded, one array per
   * `addText` call (its sentences in reading order, each ended by SENTENCE_END): counted into a
   * direction when it is decoded, call by call, so it compacts where training did.
   */
  private learned: Int32Array[] = [];

  constructor(options: ModelOptions = {}, vocabulary = new Vocabulary()) {
    this.order = options.order ?? 4;
    this.tokenizer = options.tokenizer ?? 'natural';
    this.vocabulary = vocabulary;
    this.forwardSlot = decodedSlot(this.order);
    this.backwardSlot = (options.directions ?? 'both') === 'both' ? decodedSlot(this.order) : null;
  }

  /** The counts of the forward model (decoded first when they wait encoded). */
  get forwardCounts(): NgramCounts {
    return this.decoded(this.forwardSlot).counts;
  }

  /** The forward model (decoded first when its counts wait encoded). */
  get forward(): KneserNeyEstimator {
    return this.decoded(this.forwardSlot).estimator;
  }

  /** The counts of the backward model (null for a forward-only model), decoded first when they wait. */
  get backwardCounts(): NgramCounts | null {
    return this.backwardSlot && this.decoded(this.backwardSlot).counts;
  }

  /** The backward model replies grow leftwards with (null for a forward-only model). */
  get backward(): KneserNeyEstimator | null {
    return this.backwardSlot && this.decoded(this.backwardSlot).estimator;
  }

  /** The directions this model has. */
  get directions(): Direction[] {
    return this.backwardSlot ? ['forward', 'backward'] : ['forward'];
  }

  /** True while the forward counts wait encoded (nothing has needed them since). */
  get forwardDeferred(): boolean {
    return this.forwardSlot.load !== null;
  }

  /** True while the backward counts wait encoded. */
  get backwardDeferred(): boolean {
    return this.backwardSlot?.load != null;
  }

  /**
   * Leaves the counts of a freshly restored model (before any training) to their loaders, each
   * run the first time anything reads that direction.
   */
  deferCounts(loaders: DeferredCountLoaders): void {
    if (this.forwardSlot.counts.version !== 0 || (this.backwardSlot?.counts.version ?? 0) !== 0)
      throw new Error('deferCounts: the counts are not empty');
    if (this.backwardSlot && !loaders.backward)
      throw new Error('deferCounts: a two-direction model needs a backward loader');
    this.encode(this.forwardSlot, loaders.forward, loaders.bytes / 2);
    if (this.backwardSlot) this.encode(this.backwardSlot, loaders.backward!, loaders.bytes / 2);
  }

  /**
   * Lets a direction's decoded counts go, for `load` to decode them again when they are next
   * read. `load` must give back exactly what the model holds now (it reads the bytes a snapshot
   * was just written with), so what was learned so far is never counted twice.
   */
  encodeCounts(direction: Direction, load: CountsLoader, encodedBytes = 0): void {
    this.encode(this.slotOf(direction), load, encodedBytes);
  }

  /** The counts of a direction the model has (decoded first when they wait encoded). */
  countsOf(direction: Direction): NgramCounts {
    return this.decoded(this.slotOf(direction)).counts;
  }

  /** About how many bytes a snapshot takes for a direction's counts, without decoding them. */
  countsBytesAbout(direction: Direction): number {
    const slot = this.slotOf(direction);
    if (slot.load === null) {
      let entries = 0;
      for (let k = 1; k <= this.order; k++) entries += slot.counts.levels[k].size;
      return entries * SNAPSHOT_BYTES_PER_ENTRY;
    }
    let learned = 0;
    for (const flat of this.learned.slice(slot.replayFrom)) learned += flat.length;
    // Each token learned brings at most one new entry per order.
    return slot.encodedBytes + learned * this.order * SNAPSHOT_BYTES_PER_ENTRY;
  }

  private slotOf(direction: Direction): CountsSlot {
    const slot = direction === 'forward' ? this.forwardSlot : this.backwardSlot;
    if (!slot) throw new Error('this model has no backward direction');
    return slot;
  }

  private encode(slot: CountsSlot, load: CountsLoader, encodedBytes: number): void {
    // Nothing else holds the decoded counts (the estimator goes with them; replies hold neither
    // across an await), so their memory goes back at once.
    slot.counts.release();
    const empty = new NgramCounts(this.order);
    slot.counts = empty;
    slot.estimator = new KneserNeyEstimator(empty);
    slot.load = load;
    slot.replayFrom = this.learned.length;
    slot.encodedBytes = encodedBytes;
    this.dropCountedLearning();
  }

  /** The slot with its counts decoded: loaded, then what was learned since counted in. */
  private decoded(slot: CountsSlot): CountsSlot {
    const load = slot.load;
    if (load === null) return slot;
    const counts = new NgramCounts(this.order);
    load(counts);
    const reversed = slot === this.backwardSlot;
    for (const flat of this.learned.slice(slot.replayFrom)) {
      let start = 0;
      for (let i = 0; i < flat.length; i++) {
        if (flat[i] !== SENTENCE_END) continue;
        const ids = flat.subarray(start, i);
        counts.addSentence(reversed ? ids.slice().reverse() : ids);
        start = i + 1;
      }
      this.compactIfLarge(counts);
    }
    slot.counts = counts;
    slot.estimator = new KneserNeyEstimator(counts);
    slot.load = null;
    slot.encodedBytes = 0;
    this.dropCountedLearning();
    return slot;
  }

  /** Forgets the learned word ids once every direction that waits encoded holds them. */
  private dropCountedLearning(): void {
    const waiting = [this.forwardSlot, this.backwardSlot].filter((slot) => slot?.load != null);
    if (waiting.some((slot) => slot!.replayFrom < this.learned.length)) return;
    this.learned = [];
    for (const slot of waiting) slot!.replayFrom = 0;
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
    const forward = this.forwardSlot.load === null ? this.forwardSlot.counts : null;
    const backward = this.backwardSlot && this.backwardSlot.load === null ? this.backwardSlot.counts : null;
    const waiting = forward === null || (this.backwardSlot !== null && backward === null);
    const learned: number[] = [];
    for (const line of this.sentencesOf(text)) {
      const surface = tokenize(line, this.tokenizer).filter((token) => !Vocabulary.isMarker(token));
      if (surface.length === 0) continue;
      const folded = surface.map((token) => foldCase(token, this.tokenizer));
      const ids = new Int32Array(folded.length);
      for (let i = 0; i < folded.length; i++) ids[i] = this.vocabulary.intern(folded[i]);
      if (this.tokenizer === 'natural') this.casing.observe(surface, folded, ids);
      forward?.addSentence(ids);
      if (waiting) {
        for (const id of ids) learned.push(id);
        learned.push(SENTENCE_END);
      }
      backward?.addSentence(ids.reverse());
      tokens += ids.length;
      lines++;
    }
    this.tokenCount += tokens;
    this.lineCount += lines;
    if (forward) this.compactIfLarge(forward);
    if (backward) this.compactIfLarge(backward);
    if (waiting) this.learned.push(Int32Array.from(learned));
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
   * Brings the model to its steady state, what a server does once training goes quiet: merges the
   * n-grams waiting beside the sorted counts into them, so queries and sampling read the sorted
   * arrays alone. Probabilities are unchanged. Counts a restore left waiting stay encoded: they
   * are decoded when something first reads them.
   */
  settle(): void {
    for (const slot of [this.forwardSlot, this.backwardSlot]) if (slot?.load === null) slot.counts.compact();
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
