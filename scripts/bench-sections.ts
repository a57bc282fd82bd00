/**
 * The baseline of `npm run bench:qa`: plain BM25 over the sections of the trained documents
 * (a section is its heading joined to its body), the top-1 section returned as is.
 */

/** A unit the baseline ranks: a section's heading and its body, or a line of headingless text. */
export interface BaselineSection {
  heading: string;
  body: string;
}

/**
 * The sections of a document. Markdown: ATX headings (outside code fences). Text: the headings
 * of manuals and FAQs (a line in capitals at the margin, an indented title-case line of a manual
 * page, a numbered heading "12. Title" or "12.5 Title", a line underlined with = or -). Text with
 * no headings (a verse a line) is cut into its paragraphs, or its lines when it has no blank lines.
 * (Stands in for `readDocument` of lib/documents until the readers land: one function to swap.)
 */
export function baselineSections(text: string, format: string): BaselineSection[] {
  const lines = text.split(/\r?\n/);
  const isHeading = format === 'markdown' ? markdownHeading(lines) : textHeading(lines);
  const sections: BaselineSection[] = [];
  let current: { heading: string; body: string[] } = { heading: '', body: [] };
  const close = () => {
    if (current.heading || current.body.some((line) => line.trim())) {
      sections.push({ heading: current.heading, body: current.body.join('\n').trim() });
    }
  };
  lines.forEach((line, i) => {
    const heading = isHeading(i);
    if (heading === undefined) {
      if (!/^\s*(=+|-+)\s*$/.test(line) || format === 'markdown') current.body.push(line);
      return;
    }
    close();
    current = { heading, body: [] };
  });
  close();
  if (sections.length > 1 || sections.length === 0) return sections;
  const only = sections[0]!.body;
  const paragraphs = only.split(/\n\s*\n/).filter((part) => part.trim());
  const units = paragraphs.length > 1 ? paragraphs : only.split('\n').filter((line) => line.trim());
  return units.map((body) => ({ heading: '', body }));
}

function markdownHeading(lines: string[]): (i: number) => string | undefined {
  const inFence: boolean[] = [];
  let fenced = false;
  lines.forEach((line, i) => {
    if (/^ {0,3}(```|~~~)/.test(line)) fenced = !fenced;
    inFence[i] = fenced;
  });
  return (i) => {
    if (inFence[i]) return undefined;
    const match = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(lines[i]!);
    return match ? match[1] : undefined;
  };
}

function textHeading(lines: string[]): (i: number) => string | undefined {
  return (i) => {
    const line = lines[i]!;
    const next = lines[i + 1] ?? '';
    const trimmed = line.trim();
    if (!trimmed || trimmed.length > 80) return undefined;
    if (/^[A-Z][A-Z0-9 ,&/()-]{2,}$/.test(line)) return trimmed;
    if (/^ {2,4}[A-Z][a-z]+( [A-Za-z]+){0,5}$/.test(line) && /^ {5,}\S/.test(next)) return trimmed;
    if (/^ ?\d+(\.\d+)*\.?\s+\S/.test(line) && /^\s*$/.test(next)) return trimmed;
    if (/^(=+|-+)$/.test(next.trim()) && next.trim().length >= trimmed.length - 2) return trimmed;
    return undefined;
  };
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
