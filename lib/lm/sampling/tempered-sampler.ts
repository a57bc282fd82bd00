import type { ContextState } from '../querying/context-state.js';
import { BOS, EOS, UNK } from '../words/vocabulary.js';
import { searchCumulative } from './cumulative.js';
import type { UnigramTable } from './unigram-table.js';

/** Tables of one level kept per temperature before that level's cache starts over. */
const MAX_TABLES = 16_384;
/** Words held by one level's cached tables before it starts over. */
const MAX_TABLE_WORDS = 1 << 20;
/** Contexts with fewer successors than this are weighed again when met again (cheap) instead of cached. */
const CACHED_SUCCESSORS = 8;
/** Only float rounding can make the rejection loop run this long; it then takes the last draw. */
const MAX_REJECTIONS = 10_000;

/**
 * The successors S_k of one context, each with p_k(w | context), p_(k-1)(w | its suffix) and,
 * when the predictor read it off the shorter context's table, p_(k-1)(w)^(1/T) (else NaN).
 */
export class LevelTerms {
  size = 0;
  words = new Int32Array(64);
  probs = new Float64Array(64);
  lower = new Float64Array(64);
  lowerWeights = new Float64Array(64);

  clear(): void {
    this.size = 0;
  }

  push(word: number, probability: number, lower: number, lowerWeight = Number.NaN): void {
    if (this.size === this.words.length) {
      const words = new Int32Array(this.size * 2);
      words.set(this.words);
      this.words = words;
      const probs = new Float64Array(this.size * 2);
      probs.set(this.probs);
      this.probs = probs;
      const lowerProbs = new Float64Array(this.size * 2);
      lowerProbs.set(this.lower);
      this.lower = lowerProbs;
      const lowerWeights = new Float64Array(this.size * 2);
      lowerWeights.set(this.lowerWeights);
      this.lowerWeights = lowerWeights;
    }
    this.words[this.size] = word;
    this.probs[this.size] = probability;
    this.lower[this.size] = lower;
    this.lowerWeights[this.size] = lowerWeight;
    this.size++;
  }
}

/**
 * One direction of a model in backoff form, level k = 1..N: for the context c_k of level k
 * (`state.ids[k - 1]`, an entry of order k-1), p_k(w) is explicit for its successors S_k and
 * `backoff(c_k) · p_(k-1)(w)` for every other word; level 1 is the unigram table. Interpolated
 * Kneser-Ney has this form (backoff = γ) and so has an ARPA file.
 */
export interface BackoffLevels {
  readonly order: number;
  /** Changes whenever any probability changes. */
  readonly version: number;
  unigramTable(): UnigramTable;
  /**
   * Fills `into` with S_k of the context of level k ≥ 2 and the two probabilities of each.
   * `below` is S_(k-1) with each word's p_(k-1) when the sampler holds it (null at k = 2): a
   * predictor whose successors come sorted by word may read p_(k-1) there instead of querying.
   */
  levelTerms(state: ContextState, k: number, into: LevelTerms, below: LevelProbabilities | null): void;
  /** The backoff weight of the context of level k ≥ 2 (1 when it was never seen as a context). */
  backoff(state: ContextState, k: number): number;
  /** Whether `word` is in S_k. */
  contains(state: ContextState, k: number, word: number): boolean;
  /** The most probable next word after `state` (temperature 0). */
  mostProbable(state: ContextState): number;
}

/** S_k of one context with p_k of each word and its weight p_k^(1/T), in the order the predictor listed them. */
export interface LevelProbabilities {
  readonly size: number;
  readonly words: Int32Array;
  readonly probs: Float64Array;
  readonly weights: Float64Array;
}

/** p_k^(1/T) of one context: cumulative weights of S_k, their sum, and the sum over every word. */
class LevelTable implements LevelProbabilities {
  size = 0;
  words: Int32Array;
  probs: Float64Array;
  weights: Float64Array;
  cumulative: Float64Array;
  explicit = 0;
  total = 0;
  /** What a reusable table holds: context, inverse temperature, model version. */
  context = -1;
  inverse = 0;
  version = -1;

  constructor(capacity: number) {
    this.words = new Int32Array(capacity);
    this.probs = new Float64Array(capacity);
    this.weights = new Float64Array(capacity);
    this.cumulative = new Float64Array(capacity);
  }

  reserve(size: number): void {
    if (size <= this.words.length) return;
    const capacity = Math.max(size, this.words.length * 2);
    this.words = new Int32Array(capacity);
    this.probs = new Float64Array(capacity);
    this.weights = new Float64Array(capacity);
    this.cumulative = new Float64Array(capacity);
  }
}

/** The cached tables of one temperature, per level, keyed by context entry. */
class TableCache {
  readonly levels: Map<number, LevelTable>[] = [];
  readonly words: number[] = [];

  constructor(order: number) {
    for (let k = 0; k <= order; k++) {
      this.levels.push(new Map());
      this.words.push(0);
    }
  }

  add(k: number, context: number, table: LevelTable): void {
    const level = this.levels[k];
    if (level.size >= MAX_TABLES || this.words[k] + table.size > MAX_TABLE_WORDS) {
      level.clear();
      this.words[k] = 0;
    }
    level.set(context, table);
    this.words[k] += table.size;
  }
}

/**
 * Exact tempered sampling (p^(1/T) renormalised) that never weighs the vocabulary per token.
 *
 * For the context c_k of each level, Z_k = Σ_w p_k(w)^(1/T) splits into the successors S_k,
 * weighed one by one, and every other word, whose weights are backoff(c_k)^(1/T) · p_(k-1)(w)^(1/T):
 *   Z_k = Σ_(w∈S_k) p_k(w)^(1/T) + backoff(c_k)^(1/T) · (Z_(k-1) - Σ_(w∈S_k) p_(k-1)(w)^(1/T)),
 * down to Z_1, the tempered unigram total. A draw at level k picks a successor from the cumulative
 * weights, or else draws at level k-1 until the word is outside S_k: exactly p_(k-1)^(1/T)
 * restricted to the complement, which is what that share of Z_k holds. A level's table weighs
 * |S_k| words once (p_(k-1) and its weight read off the shorter context's table) and is cached per
 * (temperature, context) when S_k is large, so a token costs a few table lookups and binary
 * searches. For Kneser-Ney p_k ≥ γ·p_(k-1) everywhere, so a draw needs at most one rejected draw
 * per level on average.
 */
export class TemperedSampler {
  private readonly caches = new Map<number, TableCache>();
  private lastInverse = 0;
  private lastCache: TableCache | null = null;
  private readonly mostProbableCache: Map<number, number>[] = [];
  /** Per level, the table of the last small context weighed there. */
  private readonly scratch: LevelTable[] = [];
  private readonly terms = new LevelTerms();
  private version = -1;

  constructor(private readonly levels: BackoffLevels) {
    for (let k = 0; k <= levels.order; k++) {
      this.mostProbableCache.push(new Map());
      this.scratch.push(new LevelTable(CACHED_SUCCESSORS));
    }
  }

  /**
   * Draws the next word after `state` at `temperature`: 0 is the argmax, 1 (and above) the model's
   * own distribution, in between p^(1/T) renormalised. Never `<s>` or `<unk>`.
   */
  sample(state: ContextState, temperature: number, random: () => number): number {
    this.sync();
    const top = Math.min(state.length + 1, this.levels.order);
    if (!(temperature > 0)) return this.argmax(state, top);
    const inverse = temperature >= 1 ? 1 : 1 / temperature;
    return this.draw(state, top, inverse, random, this.cacheFor(inverse));
  }

  /** Z of the state's longest context at `temperature`: Σ over every word of p(w)^(1/T) (for tests). */
  temperedTotal(state: ContextState, temperature: number): number {
    this.sync();
    const inverse = temperature >= 1 ? 1 : 1 / temperature;
    const top = Math.min(state.length + 1, this.levels.order);
    if (top === 1) return this.levels.unigramTable().temperedBy(inverse).total;
    return this.table(state, top, inverse, this.cacheFor(inverse)).total;
  }

  private sync(): void {
    if (this.version === this.levels.version) return;
    this.version = this.levels.version;
    this.caches.clear();
    this.lastCache = null;
    for (const cache of this.mostProbableCache) cache.clear();
  }

  private cacheFor(inverse: number): TableCache {
    if (this.lastCache && this.lastInverse === inverse) return this.lastCache;
    let cache = this.caches.get(inverse);
    if (!cache) {
      cache = new TableCache(this.levels.order);
      this.caches.set(inverse, cache);
    }
    this.lastInverse = inverse;
    this.lastCache = cache;
    return cache;
  }

  private draw(
    state: ContextState,
    k: number,
    inverse: number,
    random: () => number,
    cache: TableCache,
  ): number {
    if (k === 1) return this.levels.unigramTable().draw(inverse, random);
    const table = this.table(state, k, inverse, cache);
    if (!(table.total > 0)) return EOS;
    const target = random() * table.total;
    if (target < table.explicit) return table.words[searchCumulative(table.cumulative, target, table.size)];
    let word = EOS;
    for (let attempt = 0; attempt < MAX_REJECTIONS; attempt++) {
      word = this.draw(state, k - 1, inverse, random, cache);
      if (!this.levels.contains(state, k, word)) return word;
    }
    return word;
  }

  private table(state: ContextState, k: number, inverse: number, cache: TableCache): LevelTable {
    const context = state.ids[k - 1];
    const cached = cache.levels[k].get(context);
    if (cached) return cached;
    const reusable = this.scratch[k];
    if (reusable.context === context && reusable.inverse === inverse && reusable.version === this.version)
      return reusable;
    const below = k === 2 ? null : this.table(state, k - 1, inverse, cache);
    const lowerTotal = below ? below.total : this.levels.unigramTable().temperedBy(inverse).total;
    const terms = this.terms;
    this.levels.levelTerms(state, k, terms, below);
    const size = terms.size;
    const table = size < CACHED_SUCCESSORS ? reusable : new LevelTable(size);
    table.reserve(size);
    table.size = size;
    const { words, probs, weights, cumulative } = table;
    let explicit = 0;
    let covered = 0;
    for (let i = 0; i < size; i++) {
      const word = terms.words[i];
      const p = terms.probs[i];
      words[i] = word;
      probs[i] = p;
      let weight = 0;
      if (word !== UNK && word !== BOS) {
        weight = inverse === 1 ? p : p ** inverse;
        const lowerWeight = terms.lowerWeights[i];
        covered +=
          lowerWeight >= 0 ? lowerWeight : inverse === 1 ? terms.lower[i] : terms.lower[i] ** inverse;
      }
      weights[i] = weight;
      explicit += weight;
      cumulative[i] = explicit;
    }
    const backoff = this.levels.backoff(state, k);
    const tail = (inverse === 1 ? backoff : backoff ** inverse) * Math.max(0, lowerTotal - covered);
    table.explicit = explicit;
    table.total = explicit + tail;
    table.context = context;
    table.inverse = inverse;
    table.version = this.version;
    if (table !== reusable) cache.add(k, context, table);
    return table;
  }

  private argmax(state: ContextState, top: number): number {
    if (top === 1) return this.levels.mostProbable(state);
    const cache = this.mostProbableCache[top];
    const context = state.ids[top - 1];
    let word = cache.get(context);
    if (word === undefined) {
      word = this.levels.mostProbable(state);
      if (cache.size >= MAX_TABLES) cache.clear();
      cache.set(context, word);
    }
    return word;
  }
}
