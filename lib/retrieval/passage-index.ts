import type { BlockKind, ParsedDocument } from '../documents/types.js';
import { ownCopy } from '../lm/index.js';
import { segmentText } from '../text/index.js';
import { IntColumn, TextColumn } from './columns.js';
import { PostingLists } from './postings.js';
import { type QueryTerm, termsOf } from './terms.js';

/** One passage of the trained text (a body block) and where it is. */
export interface Passage {
  /** 1-based index of the training chunk it came from. */
  chunk: number;
  /** 1-based line of the chunk where it starts. */
  line: number;
  /** Plain text. */
  text: string;
  kind: BlockKind;
  /** The block as Markdown, when its source was Markdown or HTML. */
  markdown?: string;
  /** The name a list item or table row describes. */
  name?: string;
  /** A code block's language. */
  lang?: string;
  /** 1-based page (PDF). */
  page?: number;
}

/** Where a section is: its heading path, its document's file name and format. */
export interface SectionInfo {
  /** Heading texts, outermost first; empty when the text has no headings. */
  path: string[];
  file?: string;
  /** The id of the document the section belongs to (absent for text trained before ids existed). */
  documentId?: string;
  /** Where a citation of the document links, when the trainer gave one. */
  url?: string;
  /** True when the section's blocks carry Markdown for replies. */
  markdown: boolean;
  page?: number;
}

/** The document a chunk's text belongs to, as its sections record it. */
export interface DocumentOrigin {
  documentId?: string;
  url?: string;
}

/** A passage found for a query. */
export interface PassageHit {
  id: number;
  /** BM25 of the passage and its section's heading, plus a share of its neighbours' for one-line-a-unit text. */
  score: number;
  /** BM25 of the passage alone (body and heading). */
  ownScore: number;
  /** Query terms (indexes into the query) the passage or its heading path contains. */
  matched: number[];
  /** Query terms only its neighbouring lines (or the other blocks of its section) contain. */
  matchedNearby: number[];
  /** Query terms its section's heading path contains. */
  matchedHeading: number[];
}

/** Block kinds by the code the kind column keeps (the order is part of the snapshot format). */
export const PASSAGE_KINDS: readonly BlockKind[] = [
  'line',
  'paragraph',
  'list-item',
  'code',
  'table-row',
  'quote',
];
const LINE = 0;
/** Flags of `neighbourLinks`: the passage before (after) is a neighbouring line. */
const PREVIOUS_LINE = 1;
const NEXT_LINE = 2;

function kindCode(kind: BlockKind): number {
  const code = PASSAGE_KINDS.indexOf(kind);
  if (code < 0) throw new RangeError(`unknown block kind ${kind}`);
  return code;
}

/** The per-passage columns of an index. */
export interface PassageColumns {
  chunks: IntColumn;
  lines: IntColumn;
  /** Codes of PASSAGE_KINDS. */
  kinds: IntColumn;
  sections: IntColumn;
  /** Search terms in the passage (BM25's document length). */
  lengths: IntColumn;
  texts: TextColumn;
}

export function emptyColumns(): PassageColumns {
  return {
    chunks: new IntColumn(),
    lines: new IntColumn(),
    kinds: new IntColumn(),
    sections: new IntColumn(),
    lengths: new IntColumn(),
    texts: new TextColumn(),
  };
}

/** Okapi BM25 parameters (the usual ones). */
const K1 = 1.2;
const B = 0.75;
/** How much a line's neighbours add to its score, for text written one verse or sentence a line. */
const NEIGHBOUR_SHARE = 0.35;
/** Query terms beyond this are ignored (bit masks). */
const MAX_QUERY_TERMS = 30;
/** How much a section's heading match counts against its body's (the heading is a strong, separate field). */
const HEADING_WEIGHT = 1.2;
/** Sections whose heading matches best bring their first blocks into the hits even without body words. */
const HEADING_SECTIONS = 6;
const HEADING_BLOCKS = 2;

/**
 * A BM25 index of the passages of the trained text, built document by document as training
 * arrives (the chunks in the store stay the source of truth). Every passage is a body block of a
 * section; a section's heading path is a separate field of its own, matched beside the body, so a
 * heading helps find its section but is never a passage (never the reply).
 */
export class PassageIndex {
  /** Per passage, one item of each column (read them through `chunkOf`, `text` and the others). */
  columns: PassageColumns = emptyColumns();
  /** Sparse extras of a passage: Markdown, name, language, page. */
  readonly markdowns = new Map<number, string>();
  readonly names = new Map<number, string>();
  readonly langs = new Map<number, string>();
  readonly pages = new Map<number, number>();
  /** The passages of every term of their text. */
  readonly terms = new PostingLists();
  totalLength = 0;

  readonly sections: SectionInfo[] = [];
  /** First passage of each section, and how many it has. */
  readonly sectionStarts: number[] = [];
  readonly sectionSizes: number[] = [];
  readonly headingLengths: number[] = [];
  /** The sections of every term of their heading path. */
  readonly headingTerms = new PostingLists();
  headingTotalLength = 0;

  private scores = new Float64Array(0);
  private masks = new Uint32Array(0);
  /** The passages a search touched, in the order it touched them. */
  private touched = new Int32Array(0);
  /** PREVIOUS_LINE and NEXT_LINE per passage, known for the first `linksKnown` of `linksOf`. */
  private links = new Uint8Array(0);
  private linksKnown = 0;
  private linksOf: PassageColumns | undefined;

  get size(): number {
    return this.columns.texts.length;
  }

  /** The training chunk (1-based) passage `id` came from. */
  chunkOf(id: number): number {
    return this.columns.chunks.get(id);
  }

  /** The line of its chunk (1-based) where passage `id` starts. */
  lineOf(id: number): number {
    return this.columns.lines.get(id);
  }

  /** The plain text of passage `id`. */
  text(id: number): string {
    return this.columns.texts.get(id);
  }

  kindOf(id: number): BlockKind {
    return PASSAGE_KINDS[this.columns.kinds.get(id)];
  }

  /** The id of the section passage `id` belongs to. */
  sectionIdOf(id: number): number {
    return this.columns.sections.get(id);
  }

  /** The plain texts of every passage, in order (for tests and tools: it decodes them all). */
  allTexts(): string[] {
    return Array.from({ length: this.size }, (_, id) => this.text(id));
  }

  /** Adds the passages of one plain-text training chunk (a line or hard-wrapped paragraph each). */
  addChunk(chunk: number, text: string): number {
    const section = this.addSection({ path: [], markdown: false });
    let added = 0;
    for (const unit of segmentText(text)) {
      this.addPassage(
        { chunk, line: unit.line, text: unit.text, kind: unit.layout },
        termsOf(unit.text),
        section,
      );
      added++;
    }
    return added;
  }

  /** How many passages `addDocument` would add for the document (for the document table). */
  static passagesOf(document: ParsedDocument): number {
    const headings = headingsOf(document);
    let count = 0;
    for (const section of document.sections)
      for (const block of section.blocks)
        if (block.text.trim() !== '' && !listsHeadings(block.text, headings)) count++;
    return count;
  }

  /**
   * Adds the sections of one document read by its structure; returns the passages added. `origin`
   * names the document (its id, its citation URL) on every section, for sources that link.
   */
  addDocument(chunk: number, document: ParsedDocument, origin: DocumentOrigin = {}): number {
    const markdown = document.format === 'markdown' || document.format === 'html';
    const headings = headingsOf(document);
    let added = 0;
    for (const section of document.sections) {
      const blocks = section.blocks.filter(
        (block) => block.text.trim() !== '' && !listsHeadings(block.text, headings),
      );
      if (blocks.length === 0) continue;
      const id = this.addSection({
        path: section.path,
        markdown,
        ...(document.name ? { file: document.name } : {}),
        ...(origin.documentId ? { documentId: origin.documentId } : {}),
        ...(origin.url ? { url: origin.url } : {}),
        ...(section.page ? { page: section.page } : {}),
      });
      for (const block of blocks) {
        const terms = termsOf(
          block.kind === 'code' ? block.text : block.name ? `${block.name} ${block.text}` : block.text,
        );
        this.addPassage(
          {
            chunk,
            line: block.line,
            text: block.text,
            kind: block.kind,
            ...(markdown && block.markdown ? { markdown: block.markdown } : {}),
            ...(block.name ? { name: block.name } : {}),
            ...(block.lang ? { lang: block.lang } : {}),
            ...(block.page ? { page: block.page } : {}),
          },
          terms,
          id,
        );
        added++;
      }
    }
    return added;
  }

  /** Adds a section (its heading path indexed as a field of its own); passages follow it. */
  addSection(info: SectionInfo): number {
    const id = this.sections.length;
    this.sections.push({
      ...info,
      path: info.path.map(ownCopy),
      ...(info.file !== undefined ? { file: ownCopy(info.file) } : {}),
      ...(info.documentId !== undefined ? { documentId: ownCopy(info.documentId) } : {}),
      ...(info.url !== undefined ? { url: ownCopy(info.url) } : {}),
    });
    this.sectionStarts.push(this.size);
    this.sectionSizes.push(0);
    const terms = termsOf(info.path.join(' \n '));
    this.headingLengths.push(terms.length);
    this.headingTotalLength += terms.length;
    this.headingTerms.addAll(id, terms);
    return id;
  }

  /** Adds one passage with its (already computed) search terms to a section (the last one by default). */
  addPassage(passage: Passage, terms: readonly string[], section = this.sections.length - 1): void {
    if (section < 0) section = this.addSection({ path: [], markdown: false });
    const id = this.size;
    const columns = this.columns;
    columns.chunks.push(passage.chunk);
    columns.lines.push(passage.line);
    columns.texts.push(passage.text);
    columns.kinds.push(kindCode(passage.kind));
    columns.sections.push(section);
    this.sectionSizes[section]++;
    // Copies: a document's strings are often slices that would keep its whole text alive.
    if (passage.markdown !== undefined && passage.markdown !== passage.text)
      this.markdowns.set(id, ownCopy(passage.markdown));
    if (passage.name) this.names.set(id, ownCopy(passage.name));
    if (passage.lang) this.langs.set(id, ownCopy(passage.lang));
    if (passage.page) this.pages.set(id, passage.page);
    columns.lengths.push(terms.length);
    this.totalLength += terms.length;
    this.terms.addAll(id, terms);
  }

  /**
   * Lays the posting lists back to back again (`PostingLists.pack`): training leaves an array per
   * term; packed, they cost no object each. The snapshot writer calls it once the index is written.
   */
  pack(): void {
    this.terms.pack();
    this.headingTerms.pack();
  }

  passage(id: number): Passage {
    const extras = {
      ...(this.markdowns.has(id) ? { markdown: this.markdowns.get(id) } : {}),
      ...(this.names.has(id) ? { name: this.names.get(id) } : {}),
      ...(this.langs.has(id) ? { lang: this.langs.get(id) } : {}),
      ...(this.pages.has(id) ? { page: this.pages.get(id) } : {}),
    };
    return {
      chunk: this.chunkOf(id),
      line: this.lineOf(id),
      text: this.text(id),
      kind: this.kindOf(id),
      ...extras,
    };
  }

  /** The section a passage belongs to. */
  section(id: number): SectionInfo {
    return this.sections[this.sectionIdOf(id)];
  }

  /** The passage's text as a reply shows it: Markdown when its source was Markdown or HTML. */
  display(id: number): string {
    return this.markdowns.get(id) ?? this.text(id);
  }

  /** The next (1) or previous (-1) passage of the same section, or -1. */
  sibling(id: number, step: -1 | 1): number {
    const other = id + step;
    if (other < 0 || other >= this.size) return -1;
    return this.sectionIdOf(other) === this.sectionIdOf(id) ? other : -1;
  }

  /** Number of passages containing the term. */
  documentFrequency(term: string): number {
    return this.terms.frequency(term) || this.headingTerms.frequency(term);
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
    const { kinds, chunks, sections, lines } = this.columns;
    if (kinds.get(id) !== LINE || kinds.get(other) !== LINE) return -1;
    if (chunks.get(other) !== chunks.get(id) || sections.get(other) !== sections.get(id)) return -1;
    return Math.abs(lines.get(other) - lines.get(id)) === 1 ? other : -1;
  }

  /** The `limit` best passages for the weighted query terms, best first. */
  search(query: readonly QueryTerm[], limit: number): PassageHit[] {
    const n = this.size;
    if (n === 0 || query.length === 0 || limit <= 0) return [];
    if (this.scores.length < n) {
      this.scores = new Float64Array(n + (n >> 1));
      this.masks = new Uint32Array(this.scores.length);
      this.touched = new Int32Array(this.scores.length);
    }
    const scores = this.scores;
    const masks = this.masks;
    const touched = this.touched;
    let touchedCount = 0;
    const averageLength = this.totalLength / n || 1;
    const lengths = this.columns.lengths.view();
    const terms = query.slice(0, MAX_QUERY_TERMS);
    for (let index = 0; index < terms.length; index++) {
      const { term, weight } = terms[index];
      const list = this.terms.pairs(term);
      if (list.length === 0) continue;
      const idf = Math.log(1 + (n - list.length / 2 + 0.5) / (list.length / 2 + 0.5)) * weight;
      const bit = 1 << index;
      for (let i = 0; i < list.length; i += 2) {
        const id = list[i];
        const tf = list[i + 1];
        if (masks[id] === 0) touched[touchedCount++] = id;
        masks[id] |= bit;
        scores[id] += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[id]) / averageLength));
      }
    }
    const headings = this.headingScores(terms);
    for (const [section] of headings.best) {
      const start = this.sectionStarts[section];
      const end = start + Math.min(HEADING_BLOCKS, this.sectionSizes[section]);
      for (let id = start; id < end; id++) {
        if (masks[id] === 0) touched[touchedCount++] = id;
      }
    }
    const sections = this.columns.sections.view();
    const headingScores = headings.scores.size > 0 ? headings.scores : undefined;
    const links = this.neighbourLinks();

    // The best `limit` by score (ties: earlier passage first), kept sorted as they come: only
    // those become hits, however many passages matched a common word.
    const keep = Math.min(limit, touchedCount);
    const bestIds = new Int32Array(keep);
    const bestScores = new Float64Array(keep);
    let held = 0;
    for (let t = 0; t < touchedCount; t++) {
      const id = touched[t];
      const heading = headingScores?.get(sections[id]);
      const link = links[id];
      // A share of the better score of the neighbouring lines, 0 when there are none.
      const before = link & PREVIOUS_LINE ? scores[id - 1] : 0;
      const after = link & NEXT_LINE ? scores[id + 1] : 0;
      const score =
        scores[id] +
        (heading ? HEADING_WEIGHT * heading.score : 0) +
        NEIGHBOUR_SHARE * Math.max(before, after);
      if (held === keep && !ranksBefore(score, id, bestScores[keep - 1], bestIds[keep - 1])) continue;
      let at = held < keep ? held++ : keep - 1;
      for (; at > 0 && ranksBefore(score, id, bestScores[at - 1], bestIds[at - 1]); at--) {
        bestScores[at] = bestScores[at - 1];
        bestIds[at] = bestIds[at - 1];
      }
      bestScores[at] = score;
      bestIds[at] = id;
    }
    // What the other blocks of a passage's section match: context, as neighbouring lines are for
    // verses. Only hits that are not lines read it, so only their sections are gathered.
    const kinds = this.columns.kinds.view();
    const sectionMasks = new Map<number, number>();
    for (let i = 0; i < held; i++) if (kinds[bestIds[i]] !== LINE) sectionMasks.set(sections[bestIds[i]], 0);
    if (sectionMasks.size > 0) {
      for (let t = 0; t < touchedCount; t++) {
        const id = touched[t];
        const mask = sectionMasks.get(sections[id]);
        if (mask !== undefined && kinds[id] !== LINE) sectionMasks.set(sections[id], mask | masks[id]);
      }
    }
    const hits: PassageHit[] = [];
    for (let i = 0; i < held; i++) {
      const id = bestIds[i];
      const before = this.neighbour(id, -1);
      const after = this.neighbour(id, 1);
      const nearbyMask =
        (before >= 0 ? masks[before] : 0) |
        (after >= 0 ? masks[after] : 0) |
        (kinds[id] === LINE ? 0 : (sectionMasks.get(sections[id]) ?? 0));
      const heading = headingScores?.get(sections[id]);
      const headingMask = heading?.mask ?? 0;
      hits.push({
        id,
        score: bestScores[i],
        ownScore: scores[id] + (heading ? HEADING_WEIGHT * heading.score : 0),
        matched: bitsOf(masks[id] | headingMask),
        matchedNearby: bitsOf(nearbyMask & ~(masks[id] | headingMask)),
        matchedHeading: bitsOf(headingMask),
      });
    }
    for (let t = 0; t < touchedCount; t++) {
      const id = touched[t];
      scores[id] = 0;
      masks[id] = 0;
    }
    return hits;
  }

  /**
   * Per passage, whether the passage before and the one after are its neighbouring lines
   * (`neighbour`), worked out once: a search asks it of every passage a query word touches.
   * Passages are only ever appended, so only the last known one and the new ones need a look.
   */
  private neighbourLinks(): Uint8Array {
    const n = this.size;
    if (this.linksOf !== this.columns) {
      this.linksOf = this.columns;
      this.linksKnown = 0;
    }
    if (this.linksKnown === n) return this.links;
    if (this.links.length < n) {
      const grown = new Uint8Array(n + (n >> 1));
      grown.set(this.links.subarray(0, this.linksKnown));
      this.links = grown;
    }
    for (let id = Math.max(0, this.linksKnown - 1); id < n; id++) {
      this.links[id] =
        (this.neighbour(id, -1) >= 0 ? PREVIOUS_LINE : 0) | (this.neighbour(id, 1) >= 0 ? NEXT_LINE : 0);
    }
    this.linksKnown = n;
    return this.links;
  }

  /** BM25 of every section's heading path that matches, and the best few sections. */
  private headingScores(query: readonly QueryTerm[]): {
    scores: Map<number, { score: number; mask: number }>;
    best: [number, { score: number; mask: number }][];
  } {
    const scores = new Map<number, { score: number; mask: number }>();
    const n = this.sections.length;
    if (this.headingTotalLength === 0) return { scores, best: [] };
    const averageLength = this.headingTotalLength / n || 1;
    query.forEach(({ term, weight }, index) => {
      const list = this.headingTerms.pairs(term);
      if (list.length === 0) return;
      // The idf of the body: a heading word is as telling as the same word in the text.
      const idf = this.idf(term) * weight;
      for (let i = 0; i < list.length; i += 2) {
        const section = list[i];
        const tf = list[i + 1];
        const entry = scores.get(section) ?? { score: 0, mask: 0 };
        entry.score +=
          (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.headingLengths[section]) / averageLength));
        entry.mask |= 1 << index;
        scores.set(section, entry);
      }
    });
    const best = [...scores].sort((a, b) => b[1].score - a[1].score).slice(0, HEADING_SECTIONS);
    return { scores, best };
  }
}

/** The document's headings (without numbering), lower case, for telling a table of contents. */
function headingsOf(document: ParsedDocument): string[] {
  const headings = new Set<string>();
  for (const section of document.sections) {
    const last = section.path[section.path.length - 1];
    if (last) headings.add(bareHeading(last));
  }
  return [...headings].filter((heading) => heading.length >= 4);
}

function bareHeading(text: string): string {
  return text
    .toLowerCase()
    .replace(/^[\d.\s]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A block that is a table of contents or a cross-reference: two or more of the document's
 * headings make up most of it ("Contents 1.1. How do I ...? 1.2. Where ...?", "See section 12.5").
 */
function listsHeadings(text: string, headings: readonly string[]): boolean {
  if (headings.length < 2) return false;
  let rest = text.toLowerCase().replace(/\s+/g, ' ');
  let found = 0;
  for (const heading of headings) {
    if (!rest.includes(heading)) continue;
    found++;
    rest = rest.split(heading).join(' ');
  }
  if (found < 2) return false;
  const left = rest.replace(
    /\b(?:contents|table of contents|see|section|chapter|and|also)\b|[\d.,;:()"'“”*\-\s]/g,
    '',
  );
  return left.length <= text.length * 0.25;
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
