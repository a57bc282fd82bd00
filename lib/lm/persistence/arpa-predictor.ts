import { type ContextState, createContextState } from '../querying/context-state.js';
import { resizeFloat32 } from '../querying/growth.js';
import { NgramLevel } from '../querying/ngram-level.js';
import { scoreByAdvancing } from '../querying/sentence-scoring.js';
import { sampleToken } from '../sampling/sampling.js';
import {
  type BackoffLevels,
  type LevelProbabilities,
  type LevelTerms,
  TemperedSampler,
} from '../sampling/tempered-sampler.js';
import { TokenDistribution } from '../sampling/token-distribution.js';
import { UnigramTable } from '../sampling/unigram-table.js';
import type { TokenPredictor } from '../types.js';
import { BOS, UNK } from '../words/vocabulary.js';

/** log10 probability KenLM gives `<unk>` when a file has none. */
const MISSING_UNK = -100;

/**
 * A backoff model read from an ARPA file: the stored probability of the longest n-gram found,
 * times the backoff weights of the longer contexts, as KenLM queries it. The n-grams live in the
 * same trie levels as counted models, with Float32 log10 columns.
 */
export class ArpaPredictor implements TokenPredictor, BackoffLevels {
  readonly levels: NgramLevel[] = [];
  readonly logProb: Float32Array[] = [];
  readonly logBackoff: Float32Array[] = [];
  lastMatch = 0;
  /** Bumped by every `add`. */
  version = 0;
  private unigrams: UnigramTable | null = null;
  private readonly found: Int32Array;
  private matched = 0;
  private readonly sampler: TemperedSampler;
  private readonly argmaxScratch = new TokenDistribution();

  constructor(
    readonly order: number,
    sizes: readonly number[],
  ) {
    for (let k = 0; k <= order; k++) {
      const capacity = Math.max(1, sizes[k] ?? 0);
      this.levels.push(new NgramLevel(k <= 1, k === order, capacity));
      this.logProb.push(new Float32Array(capacity).fill(k === 1 ? Number.NEGATIVE_INFINITY : 0));
      this.logBackoff.push(new Float32Array(k < order ? capacity : 0));
    }
    this.found = new Int32Array(order + 1);
    this.sampler = new TemperedSampler(this);
  }

  /** Adds an n-gram of order k whose context entry is `context`; the context must be present. */
  add(k: number, context: number, word: number, logProb: number, logBackoff: number): void {
    const level = this.levels[k];
    let id = level.find(context, word);
    if (id < 0) {
      id = level.add(context, word);
      if (level.capacity > this.logProb[k].length) {
        this.logProb[k] = resizeFloat32(this.logProb[k], level.capacity);
        if (k < this.order) this.logBackoff[k] = resizeFloat32(this.logBackoff[k], level.capacity);
      }
      if (k > 1) {
        const parents = this.levels[k - 1].firstChild!;
        level.nextSibling[id] = parents[context];
        parents[context] = id;
      }
    }
    this.logProb[k][id] = logProb;
    if (k < this.order) this.logBackoff[k][id] = logBackoff;
    this.unigrams = null;
    this.version++;
  }

  /** Entry id at order k of the n-gram `words` (ids), or -1. */
  find(words: ArrayLike<number>): number {
    let id = words[0];
    if (id >= this.levels[1].size) return -1;
    for (let k = 2; k <= words.length && id >= 0; k++) id = this.levels[k].find(id, words[k - 1]);
    return id;
  }

  startState(): ContextState {
    return createContextState(this.order, BOS);
  }

  advance(state: ContextState, word: number): number {
    const logP = this.query(state, word, Math.min(state.length + 1, this.order));
    const matched = this.matched;
    this.lastMatch = matched;
    const length = Math.min(matched, this.order - 1);
    for (let k = 1; k <= length; k++) state.ids[k] = this.found[k];
    state.length = length;
    return logP;
  }

  scoreSentence(words: Int32Array, length: number, sums: Float64Array): void {
    scoreByAdvancing(this, words, length, sums);
  }

  /** log10 p(word) from the state's contexts of orders below `top`; leaves the n-grams matched in `found`. */
  private query(state: ContextState, word: number, top: number): number {
    const known =
      word !== UNK && word < this.levels[1].size && this.logProb[1][word] > Number.NEGATIVE_INFINITY;
    let matched = 0;
    let logP = this.logProb[1][UNK] ?? MISSING_UNK;
    if (known) {
      matched = 1;
      this.found[1] = word;
      for (let k = 2; k <= top; k++) {
        const id = this.levels[k].find(state.ids[k - 1], word);
        if (id < 0) break;
        this.found[k] = id;
        matched = k;
      }
      logP = this.logProb[matched][this.found[matched]];
    }
    if (!Number.isFinite(logP)) logP = MISSING_UNK;
    for (let k = Math.max(matched, 1) + 1; k <= top; k++) logP += this.logBackoff[k - 1][state.ids[k - 1]];
    this.matched = matched;
    return logP;
  }

  sample(
    state: ContextState,
    temperature: number,
    random: () => number,
    _scratch: TokenDistribution,
  ): number {
    return this.sampler.sample(state, temperature, random);
  }

  /** Z of the state's longest context at `temperature`, as the sampler computes it (for tests). */
  temperedTotal(state: ContextState, temperature: number): number {
    return this.sampler.temperedTotal(state, temperature);
  }

  levelTerms(state: ContextState, k: number, into: LevelTerms, _below: LevelProbabilities | null): void {
    into.clear();
    const context = state.ids[k - 1];
    const level = this.levels[k];
    const logProb = this.logProb[k];
    for (let id = this.levels[k - 1].firstChild![context]; id >= 0; id = level.nextSibling[id]) {
      const word = level.wordOf(id);
      into.push(word, 10 ** logProb[id], 10 ** this.query(state, word, k - 1));
    }
  }

  backoff(state: ContextState, k: number): number {
    return 10 ** this.logBackoff[k - 1][state.ids[k - 1]];
  }

  contains(state: ContextState, k: number, word: number): boolean {
    return this.levels[k].find(state.ids[k - 1], word) >= 0;
  }

  mostProbable(state: ContextState): number {
    this.nextTokens(state, this.argmaxScratch);
    return sampleToken(this.argmaxScratch, 0, Math.random);
  }

  nextTokens(state: ContextState, into: TokenDistribution): void {
    into.reset(this.unigramTable());
    const top = Math.min(state.length + 1, this.order);
    for (let k = 2; k <= top; k++) {
      const context = state.ids[k - 1];
      const parents = this.levels[k - 1].firstChild!;
      into.multiply(10 ** this.logBackoff[k - 1][context]);
      const level = this.levels[k];
      const logProb = this.logProb[k];
      for (let id = parents[context]; id >= 0; id = level.nextSibling[id])
        into.set(level.wordOf(id), 10 ** logProb[id]);
    }
  }

  unigramTable(): UnigramTable {
    if (!this.unigrams) {
      const logProb = this.logProb[1];
      const probs = new Float64Array(this.levels[1].size);
      for (let w = 0; w < probs.length; w++) probs[w] = 10 ** logProb[w];
      this.unigrams = new UnigramTable(probs);
    }
    return this.unigrams;
  }
}
