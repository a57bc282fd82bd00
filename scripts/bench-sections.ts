import { type DocumentFormat, readDocument } from '../lib/documents/index.js';

/**
 * The baseline of `npm run bench:qa`: plain BM25 over the sections of the trained documents
 * (a section is its heading joined to its body), the top-1 section returned as is.
 */

/** A unit the baseline ranks: a section's heading path and its body, or a block of headingless text. */
export interface BaselineSection {
  heading: string;
  body: string;
}

/**
 * The sections of a document as the service's readers find them (`readDocument`), each its
 * heading path joined to its body; text before any heading (or a text with none, a verse a line)
 * is ranked block by block.
 */
export function baselineSections(text: string, format: DocumentFormat): BaselineSection[] {
  return readDocument({ format, text }).sections.flatMap((section) => {
    const bodies = section.blocks.map((block) => block.text);
    if (section.path.length === 0) return bodies.map((body) => ({ heading: '', body }));
    return [{ heading: section.path.join(' > '), body: bodies.join('\n') }];
  });
}

const K1 = 1.2;
const B = 0.75;

/** Lower-case word tokens, no stemming, no stop words: plain BM25 as a search box does it. */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** Plain Okapi BM25 (k1 1.2, b 0.75) over a list of sections. */
export class SectionBm25 {
  private readonly counts: Map<string, number>[];
  private readonly lengths: number[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(readonly sections: BaselineSection[]) {
    this.counts = sections.map((section) => {
      const counts = new Map<string, number>();
      for (const word of words(`${section.heading}\n${section.body}`)) {
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
      for (const word of counts.keys()) {
        this.documentFrequency.set(word, (this.documentFrequency.get(word) ?? 0) + 1);
      }
      return counts;
    });
    this.lengths = this.counts.map((counts) => [...counts.values()].reduce((sum, n) => sum + n, 0));
    this.averageLength = this.lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, this.lengths.length);
  }

  /** The best section for a query as it would be shown: heading, then body; '' when none matches. */
  top(query: string): string {
    const terms = [...new Set(words(query))];
    const total = this.sections.length;
    let best = -1;
    let bestScore = 0;
    this.counts.forEach((counts, i) => {
      let score = 0;
      for (const term of terms) {
        const tf = counts.get(term);
        if (!tf) continue;
        const df = this.documentFrequency.get(term)!;
        const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
        score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[i]!) / this.averageLength));
      }
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    if (best < 0) return '';
    const section = this.sections[best]!;
    return section.heading ? `${section.heading}\n${section.body}` : section.body;
  }
}
