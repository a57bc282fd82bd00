import { type ContextState, createContextState } from '../querying/context-state.js';
import { PRODUCT_FLOOR, SENTENCE_SUMS, scoreByAdvancing } from '../querying/sentence-scoring.js';
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
import { BOS, EOS, UNK } from '../words/vocabulary.js';
import { modifiedKneserNeyDiscounts } from './discounts.js';
import {
  CONTEXT_RECORD,
  COUNT,
  type NgramCounts,
  ONES,
  THREE_PLUS,
  TOTAL,
  TWOS,
  WORD,
} from './ngram-counts.js';

// Module-local copies for the query loop: transpiled imports are read through getters.
const CONTEXT = CONTEXT_RECORD;
const AT_COUNT = COUNT;
const AT_WORD = WORD;
const AT_TOTAL = TOTAL;
const AT_ONES = ONES;
const AT_TWOS = TWOS;
const AT_THREE_PLUS = THREE_PLUS;
const UNKNOWN = UNK;
const START = BOS;
const END = EOS;
const ALL = SENTENCE_SUMS.all;
const UNKNOWN_TERMS = SENTENCE_SUMS.unknown;
const FLOOR = PRODUCT_FLOOR;

/**
 * Interpolated modified Kneser-Ney over live counts, as lmplz estimates it:
 *   p(w | c) = (a(cw) - D(a(cw))) / a(c·) + γ(c) p(w | c'),  γ(c) = (D1 N1(c·) + D2 N2(c·) + D3 N3+(c·)) / a(c·)
 * down to the unigrams, which are interpolated with the uniform 1/|V| (|V| counting `<unk>` and
 * `</s>` but not `<s>`); `<unk>` has count 0 and so gets only that uniform share. A context never
 * seen passes the lower order through unchanged, which is what ARPA backoff does.
 * Discounts follow the counts: they are recomputed whenever the counts change.
 */
export class KneserNeyEstimator implements TokenPredictor, BackoffLevels {
  lastMatch = 0;
  private readonly sampler: TemperedSampler;
  private readonly argmaxScratch = new TokenDistribution();
  /** discounts[k] = [0, D1, D2, D3+] of order k. */
  private readonly discounts: Float64Array[];
  private seenVersion = -1;
  private uniform = 0;
  private rootGamma = 0;
  private rootTotal = 0;
  private readonly next: Int32Array;
  /** Per order k, the entry (state's context of order k-1, word), -1 when absent. */
  private readonly found: Int32Array;
  /** `scoreSentence`'s tokens: `<s>`, the sentence's words, `</s>`. */
  private sentenceWords = new Int32Array(64);
  /**
   * `scoreSentence`'s n-grams: row k (of the words' length) holds at each position the entry id of
   * the k-gram ending there, -1 when not counted.
   */
  private sentenceGrams = new Int32Array(0);
  private unigrams: UnigramTable | null = null;
  private unigramsVersion = -1;

  constructor(readonly counts: NgramCounts) {
    this.sampler = new TemperedSampler(this);
    this.discounts = [];
    for (let k = 0; k <= counts.order; k++) this.discounts.push(new Float64Array(4));
    this.next = new Int32Array(counts.order + 1);
    this.found = new Int32Array(counts.order + 1);
    this.sentenceGrams = new Int32Array(64 * (counts.order + 1));
  }

  get order(): number {
    return this.counts.order;
  }

  get version(): number {
    return this.counts.version;
  }

  /** [D1, D2, D3+] of order k as currently estimated. */
  discountsOf(k: number): [number, number, number] {
    const d = this.discountTable(k);
    return [d[1], d[2], d[3]];
  }

  /** [unused, D1, D2, D3+] of order k, current with the counts (do not modify). */
  discountTable(k: number): Float64Array {
    this.refresh();
    return this.discounts[k];
  }

  /** Brings discounts and unigram constants up to date with the counts. */
  refresh(): void {
    const counts = this.counts;
    if (this.seenVersion === counts.version) return;
    this.seenVersion = counts.version;
    for (let k = 1; k <= counts.order; k++) {
      this.discounts[k].set(modifiedKneserNeyDiscounts(counts.countsOfCounts[k]), 1);
    }
    this.rootTotal = counts.statOf(0, 0, TOTAL);
    this.rootGamma = this.rootTotal > 0 ? this.gamma(0, 0) : 1;
    // Every unigram but <s> shares the uniform mass.
    this.uniform = 1 / Math.max(1, counts.levels[1].size - 1);
  }

  /** Probability of `word` from the unigram level alone. */
  unigram(word: number): number {
    this.refresh();
    const count = word < this.counts.levels[1].size ? this.counts.countOf(1, word) : 0;
    const discounted = count > 0 ? (count - this.discount(1, count)) / this.rootTotal : 0;
    return discounted + this.rootGamma * this.uniform;
  }

  /** Discount of order k for an n-gram of adjusted count `count` > 0. */
  discount(k: number, count: number): number {
    return this.discounts[k][Math.min(count, 3)];
  }

  /** Backoff weight γ of the context entry `id` of order k (contexts of order 0: id 0), 1 when unseen. */
  gamma(k: number, id: number): number {
    const contexts = this.counts.levels[k].contexts!;
    const at = id * CONTEXT_RECORD;
    const total = contexts[at + TOTAL];
    if (total === 0) return 1;
    const d = this.discounts[k + 1];
    return backoffWeight(d, contexts, at, total);
  }

  /**
   * log10 p(word | state), moving `state` past `word` (an unknown word empties it).
   * Costs one hash lookup per order of the state (two random reads each: slot, cell).
   */
  advance(state: ContextState, word: number): number {
    const p = this.interpolate(state, word, Math.min(state.length + 1, this.counts.order));
    const length = Math.min(this.lastMatch, this.counts.order - 1);
    for (let k = 1; k <= length; k++) state.ids[k] = this.next[k];
    state.length = length;
    return Math.log10(p);
  }

  /** p(word | state), leaving `state` as it is. */
  probability(state: ContextState, word: number): number {
    return this.interpolate(state, word, Math.min(state.length + 1, this.counts.order));
  }

  /**
   * p(word | state) from the state's contexts of orders below `top`; leaves the ids of the n-grams matched in `next` and their order in `lastMatch`.
   * The word is looked up after every context of the state before any lookup's result is used:
   * the lookups are independent, so their cache misses overlap instead of following one another
   * (about 1.2x faster queries). A lookup past the first order that misses is wasted, but cheap.
   */
  private interpolate(state: ContextState, word: number, top: number): number {
    if (this.seenVersion !== this.counts.version) this.refresh();
    const levels = this.counts.levels;
    const next = this.next;
    const unigrams = levels[1];
    const unigramCount = word < unigrams.size ? unigrams.entries[word * unigrams.stride + AT_COUNT] : 0;
    let p =
      (unigramCount > 0
        ? (unigramCount - this.discounts[1][unigramCount < 3 ? unigramCount : 3]) / this.rootTotal
        : 0) +
      this.rootGamma * this.uniform;
    let matched = word !== UNKNOWN && unigramCount > 0 ? 1 : 0;
    next[1] = word;
    const ids = state.ids;
    const found = this.found;
    if (this.counts.pendingCount === 0) {
      for (let k = 2; k <= top; k++)
        found[k] = levels[k].findSorted(levels[k - 1].contexts!, ids[k - 1], word);
    } else {
      for (let k = 2; k <= top; k++) found[k] = this.counts.find(k, ids[k - 1], word);
    }
    for (let k = 2; k <= top; k++) {
      const contexts = levels[k - 1].contexts!;
      const at = ids[k - 1] * CONTEXT;
      const total = contexts[at + AT_TOTAL];
      if (total === 0) break;
      const d = this.discounts[k];
      const gamma = backoffWeight(d, contexts, at, total);
      if (matched === k - 1) {
        const id = found[k];
        if (id >= 0) {
          const level = levels[k];
          const count = level.entries[id * level.stride + AT_COUNT];
          p = (count - d[count < 3 ? count : 3]) / total + gamma * p;
          next[k] = id;
          matched = k;
          continue;
        }
      }
      p *= gamma;
    }
    this.lastMatch = matched;
    return p;
  }

  /**
   * `advance` over a whole sentence, with the same probabilities, for perplexity runs. The n-grams
   * are found order by order rather than token by token: the k-gram ending at position j is
   * (the (k-1)-gram ending at j-1, word j), so once order k-1 is known at every position, the
   * lookups of order k are independent of one another and their cache misses overlap (a
   * token-by-token walk waits for each before it can start the next). An order is searched only
   * where the order below matched (every suffix of a counted n-gram is counted). A last pass then
   * interpolates exactly as `interpolate` does, from records the lookups just brought into cache,
   * and multiplies the probabilities, taking a logarithm once per sentence (or when the product
   * nears underflow). Reads the sorted n-grams only: while some wait in the pending hash, it
   * advances token by token.
   */
  scoreSentence(words: Int32Array, length: number, sums: Float64Array): void {
    const counts = this.counts;
    if (counts.pendingCount > 0) {
      scoreByAdvancing(this, words, length, sums);
      return;
    }
    this.refresh();
    const order = counts.order;
    const levels = counts.levels;
    const unigrams = levels[1];
    const unigramEntries = unigrams.entries;
    const unigramStride = unigrams.stride;
    const unigramCount = unigrams.size;
    // Positions: 0 is <s>, 1..length the words, length + 1 the </s>.
    const positions = length + 2;
    const width = this.gramsFor(positions);
    const grams = this.sentenceGrams;
    const tokens = this.sentenceWords;
    tokens[0] = START;
    grams[width] = START;
    for (let j = 1; j < positions; j++) {
      const word = j <= length ? words[j - 1] : END;
      tokens[j] = word;
      const count = word < unigramCount ? unigramEntries[word * unigramStride + AT_COUNT] : 0;
      grams[width + j] = word !== UNKNOWN && count > 0 ? word : -1;
    }
    for (let k = 2; k <= order; k++) {
      const level = levels[k];
      const parents = levels[k - 1].contexts!;
      const below = (k - 1) * width;
      const row = k * width;
      grams[row] = -1;
      for (let j = 1; j < positions; j++) {
        const context = grams[below + j - 1];
        grams[row + j] =
          context < 0 || grams[below + j] < 0 ? -1 : level.findSorted(parents, context, tokens[j]);
      }
    }
    const unigramDiscounts = this.discounts[1];
    const rootTotal = this.rootTotal;
    const floor = this.rootGamma * this.uniform;
    let product = 1;
    let logSum = 0;
    let unknownSum = 0;
    for (let j = 1; j < positions; j++) {
      const word = tokens[j];
      const count = word < unigramCount ? unigramEntries[word * unigramStride + AT_COUNT] : 0;
      let p = (count > 0 ? (count - unigramDiscounts[count < 3 ? count : 3]) / rootTotal : 0) + floor;
      for (let k = 2, below = width; k <= order; k++, below += width) {
        const context = grams[below + j - 1];
        if (context < 0) break;
        const contexts = levels[k - 1].contexts!;
        const at = context * CONTEXT;
        const total = contexts[at + AT_TOTAL];
        if (total === 0) break;
        const d = this.discounts[k];
        const gamma = backoffWeight(d, contexts, at, total);
        const id = grams[below + width + j];
        if (id >= 0) {
          const level = levels[k];
          const c = level.entries[id * level.stride + AT_COUNT];
          p = (c - d[c < 3 ? c : 3]) / total + gamma * p;
        } else p *= gamma;
      }
      if (word === UNKNOWN) unknownSum += Math.log10(p);
      product *= p;
      if (product < FLOOR) {
        logSum += Math.log10(product);
        product = 1;
      }
    }
    sums[ALL] += logSum + Math.log10(product);
    sums[UNKNOWN_TERMS] += unknownSum;
  }

  /** Makes room in the sentence scratch for `positions` positions; returns the row width. */
  private gramsFor(positions: number): number {
    if (this.sentenceWords.length < positions) {
      const width = Math.max(positions, this.sentenceWords.length * 2);
      this.sentenceWords = new Int32Array(width);
      this.sentenceGrams = new Int32Array(width * (this.counts.order + 1));
    }
    return this.sentenceWords.length;
  }

  startState(): ContextState {
    return createContextState(this.counts.order, BOS);
  }

  sample(
    state: ContextState,
    temperature: number,
    random: () => number,
    _scratch: TokenDistribution,
  ): number {
    this.refresh();
    return this.sampler.sample(state, temperature, random);
  }

  /** Z of the state's longest context at `temperature`, as the sampler computes it (for tests). */
  temperedTotal(state: ContextState, temperature: number): number {
    return this.sampler.temperedTotal(state, temperature);
  }

  /**
   * S_k with p_k = own share + γ·p_(k-1). Successors come sorted by word, and so do those of the
   * shorter context (`below`), which hold every one of them: p_(k-1) is read there by a search
   * that moves forwards only, instead of a query per word.
   */
  levelTerms(state: ContextState, k: number, into: LevelTerms, below: LevelProbabilities | null): void {
    into.clear();
    const counts = this.counts;
    const context = state.ids[k - 1];
    const total = counts.statOf(k - 1, context, AT_TOTAL);
    if (total === 0) return;
    const gamma = this.gamma(k - 1, context);
    const d = this.discounts[k];
    const level = counts.levels[k];
    const unigrams = k === 2 ? this.unigramTable().probs : null;
    let from = 0;
    counts.forEachSuccessor(k, context, (id) => {
      const c = level.entries[id * level.stride + AT_COUNT];
      const word = level.entries[id * level.stride + AT_WORD];
      let lower: number;
      if (unigrams) lower = unigrams[word];
      else {
        const at = below ? searchFrom(below.words, from, below.size, word) : -1;
        if (at >= 0) {
          from = at + 1;
          into.push(
            word,
            (c - d[c < 3 ? c : 3]) / total + gamma * below!.probs[at],
            below!.probs[at],
            below!.weights[at],
          );
          return;
        }
        lower = this.interpolate(state, word, k - 1);
      }
      into.push(word, (c - d[c < 3 ? c : 3]) / total + gamma * lower, lower);
    });
  }

  backoff(state: ContextState, k: number): number {
    return this.gamma(k - 1, state.ids[k - 1]);
  }

  contains(state: ContextState, k: number, word: number): boolean {
    return this.counts.find(k, state.ids[k - 1], word) >= 0;
  }

  mostProbable(state: ContextState): number {
    this.nextTokens(state, this.argmaxScratch);
    return sampleToken(this.argmaxScratch, 0, Math.random);
  }

  nextTokens(state: ContextState, into: TokenDistribution): void {
    this.refresh();
    const counts = this.counts;
    into.reset(this.unigramTable());
    const top = Math.min(state.length + 1, counts.order);
    for (let k = 2; k <= top; k++) {
      const context = state.ids[k - 1];
      const total = counts.statOf(k - 1, context, AT_TOTAL);
      if (total === 0) break;
      into.multiply(this.gamma(k - 1, context));
      const d = this.discounts[k];
      const level = counts.levels[k];
      counts.forEachSuccessor(k, context, (id) => {
        const c = level.entries[id * level.stride + AT_COUNT];
        into.add(level.entries[id * level.stride + AT_WORD], (c - d[c < 3 ? c : 3]) / total);
      });
    }
  }

  unigramTable(): UnigramTable {
    this.refresh();
    if (!this.unigrams || this.unigramsVersion !== this.counts.version) {
      const probs = new Float64Array(this.counts.levels[1].size);
      for (let w = 0; w < probs.length; w++) probs[w] = this.unigram(w);
      this.unigrams = new UnigramTable(probs);
      this.unigramsVersion = this.counts.version;
    }
    return this.unigrams;
  }
}

/** The index of `word` in `words[from..size-1]` (sorted ascending), or -1. */
function searchFrom(words: Int32Array, from: number, size: number, word: number): number {
  let low = from;
  let high = size - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const found = words[mid];
    if (found < word) low = mid + 1;
    else if (found > word) high = mid - 1;
    else return mid;
  }
  return -1;
}

/**
 * Interpolated modified Kneser-Ney's backoff weight of a context: the mass its discounts free,
 * (D1 N1 + D2 N2 + D3+ N3+) / total, read from the context's record at `at`.
 */
function backoffWeight(d: ArrayLike<number>, contexts: ArrayLike<number>, at: number, total: number): number {
  return (
    (d[1] * contexts[at + AT_ONES] + d[2] * contexts[at + AT_TWOS] + d[3] * contexts[at + AT_THREE_PLUS]) /
    total
  );
}
