import type { Layout } from '../text/index.js';
import { segmentText } from '../text/index.js';
import { type QueryTerm, termsOf } from './terms.js';

/** One passage of the trained text and where it is. */
export interface Passage {
  /** 1-based index of the training chunk it came from. */
  chunk: number;
  /** 1-based line of the chunk where it starts. */
  line: number;
  text: string;
  layout: Layout;
}

/** A passage found for a query. */
export interface PassageHit {
  id: number;
  /** BM25 of the passage itself, plus a share of its neighbours' for one-line-a-unit text. */
  score: number;
  /** BM25 of the passage alone. */
  ownScore: number;
  /** Query terms (indexes into the query) the passage contains. */
  matched: number[];
  /** Query terms only its neighbouring lines contain. */
  matchedNearby: number[];
}

/** Okapi BM25 parameters (the usual ones). */
const K1 = 1.2;
const B = 0.75;
/** How much a line's neighbours add to its score, for text written one verse or sentence a line. */
const NEIGHBOUR_SHARE = 0.35;
/** Query terms beyond this are ignored (bit masks). */
const MAX_QUERY_TERMS = 30;

/**
 * A BM25 index of the passages of the trained text, built chunk by chunk as training arrives
 * (the chunks in the store stay the source of truth). Postings are plain arrays of (passage,
 * term frequency) pairs per term; scoring uses one scratch array per index.
 */
export class PassageIndex {
  readonly chunks: number[] = [];
  readonly lines: number[] = [];
  readonly texts: string[] = [];
  readonly layouts: Layout[] = [];
  readonly lengths: number[] = [];
  readonly termIds = new Map<string, number>();
  readonly postings: number[][] = [];
  totalLength = 0;
  private scores = new Float64Array(0);
  private masks = new Uint32Array(0);

  get size(): number {
    return this.texts.length;
  }

  /** Adds the passages of one training chunk. */
  addChunk(chunk: number, text: string): number {
    let added = 0;
    for (const unit of segmentText(text)) {
      this.addPassage({ chunk, line: unit.line, text: unit.text, layout: unit.layout }, termsOf(unit.text));
      added++;
    }
    return added;
  }

  /** Adds one passage with its (already computed) search terms. */
  addPassage(passage: Passage, terms: readonly string[]): void {
    const id = this.texts.length;
    this.chunks.push(passage.chunk);
    this.lines.push(passage.line);
    this.texts.push(passage.text);
    this.layouts.push(passage.layout);
    this.lengths.push(terms.length);
    this.totalLength += terms.length;
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let termId = this.termIds.get(term);
      if (termId === undefined) {
        termId = this.postings.length;
        this.termIds.set(term, termId);
        this.postings.push([]);
      }
      this.postings[termId].push(id, tf);
    }
  }

  passage(id: number): Passage {
    return { chunk: this.chunks[id], line: this.lines[id], text: this.texts[id], layout: this.layouts[id] };
  }

  /** Number of passages containing the term. */
  documentFrequency(term: string): number {
    const termId = this.termIds.get(term);
    return termId === undefined ? 0 : this.postings[termId].length / 2;
  }

  /** BM25's inverse document frequency; a term never seen gets the highest value there is. */
  idf(term: string): number {
    const n = this.size;
    const df = this.documentFrequency(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** The neighbouring line of a one-unit-a-line passage in the same chunk, or -1. */
  neighbour(id: number, step: -1 | 1): number {
    const other = id + step;
    if (other < 0 || other >= this.size) return -1;
    if (this.layouts[id] !== 'line' || this.layouts[other] !== 'line') return -1;
    if (this.chunks[other] !== this.chunks[id]) return -1;
    return Math.abs(this.lines[other] - this.lines[id]) === 1 ? other : -1;
  }

  /** The `limit` best passages for the weighted query terms, best first. */
  search(query: readonly QueryTerm[], limit: number): PassageHit[] {
    const n = this.size;
    if (n === 0 || query.length === 0 || limit <= 0) return [];
    if (this.scores.length < n) {
      this.scores = new Float64Array(n + (n >> 1));
      this.masks = new Uint32Array(this.scores.length);
    }
    const scores = this.scores;
    const masks = this.masks;
    const touched: number[] = [];
    const averageLength = this.totalLength / n || 1;
    query.slice(0, MAX_QUERY_TERMS).forEach(({ term, weight }, index) => {
      const termId = this.termIds.get(term);
      if (termId === undefined) return;
      const list = this.postings[termId];
      const idf = Math.log(1 + (n - list.length / 2 + 0.5) / (list.length / 2 + 0.5)) * weight;
      const bit = 1 << index;
      for (let i = 0; i < list.length; i += 2) {
        const id = list[i];
        const tf = list[i + 1];
        if (masks[id] === 0) touched.push(id);
        masks[id] |= bit;
        scores[id] += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[id]) / averageLength));
      }
    });

    // The best `limit` by score (ties: earlier passage first), kept sorted as they come: only
    // those become hits, however many passages matched a common word.
    const keep = Math.min(limit, touched.length);
    const bestIds = new Int32Array(keep);
    const bestScores = new Float64Array(keep);
    let held = 0;
    for (const id of touched) {
      const score = scores[id] + NEIGHBOUR_SHARE * this.nearbyScore(id, scores);
      if (held === keep && !ranksBefore(score, id, bestScores[keep - 1], bestIds[keep - 1])) continue;
      let at = held < keep ? held++ : keep - 1;
      for (; at > 0 && ranksBefore(score, id, bestScores[at - 1], bestIds[at - 1]); at--) {
        bestScores[at] = bestScores[at - 1];
        bestIds[at] = bestIds[at - 1];
      }
      bestScores[at] = score;
      bestIds[at] = id;
    }
    const hits: PassageHit[] = [];
    for (let i = 0; i < held; i++) {
      const id = bestIds[i];
      const before = this.neighbour(id, -1);
      const after = this.neighbour(id, 1);
      const nearbyMask = (before >= 0 ? masks[before] : 0) | (after >= 0 ? masks[after] : 0);
      hits.push({
        id,
        score: bestScores[i],
        ownScore: scores[id],
        matched: bitsOf(masks[id]),
        matchedNearby: bitsOf(nearbyMask & ~masks[id]),
      });
    }
    for (const id of touched) {
      scores[id] = 0;
      masks[id] = 0;
    }
    return hits;
  }

  /** The better BM25 of a passage's neighbouring lines (one-unit-a-line text), 0 when none. */
  private nearbyScore(id: number, scores: Float64Array): number {
    const before = this.neighbour(id, -1);
    const after = this.neighbour(id, 1);
    return Math.max(before >= 0 ? scores[before] : 0, after >= 0 ? scores[after] : 0);
  }
}

/** Whether (score, id) ranks before (otherScore, otherId): higher score, then the earlier passage. */
function ranksBefore(score: number, id: number, otherScore: number, otherId: number): boolean {
  return score > otherScore || (score === otherScore && id < otherId);
}

function bitsOf(mask: number): number[] {
  const bits: number[] = [];
  for (let bit = 0; mask !== 0; bit++, mask >>>= 1) if (mask & 1) bits.push(bit);
  return bits;
}
