import * as v from 'valibot';
import type { DialoguePair } from '../documents/types.js';
import type { LanguageModel } from '../lm/index.js';
import type { PassageIndex } from '../retrieval/index.js';

/**
 * Where a source passage is: a chunk and line of the trained text, an encyclopedia article, or a
 * line of the text read in an image (its id: the SHA-256 POST /api/upload names it by).
 */
export type SourceRef =
  | { chunk: number; line: number }
  | { title: string; url: string }
  | { image: string; line: number };

/** A passage a reply used, as every chat response lists it in `sources`. */
export interface Source {
  text: string;
  /** Retrieval score (BM25 with neighbours; for www, the extract's relevance). */
  score: number;
  ref: SourceRef;
  /** The heading path of the passage's section ("tar > Options > strip"), when the text has headings. */
  section?: string;
  /** The file name the text was trained under. */
  file?: string;
  /** The page, for a PDF. */
  page?: number;
  /** The id of the document the passage belongs to. */
  documentId?: string;
  /** Where a citation of the document links (given at training), before the section's anchor. */
  url?: string;
  /** The document's format as its file name tells it, for the kind of anchor a citation links to. */
  format?: 'markdown' | 'html' | 'pdf';
}

/** How much evidence a mode gathers: passages retrieved and re-ranked, passages cited at most. */
export interface EvidenceBudget {
  retrieve: number;
  cite: number;
}

/** Evidence budgets of the chat modes: more passages considered and cited, not longer babble. */
export const evidenceBudgets = {
  instant: { retrieve: 20, cite: 1 },
  expert: { retrieve: 40, cite: 2 },
  apex: { retrieve: 120, cite: 3 },
} as const satisfies Record<string, EvidenceBudget>;

/**
 * How sure the reply is, from the evidence: `answer` states the answer, `nearest` says plainly
 * that the closest passage may not answer (cited), `none` is "I don't know". Other parts of the
 * service (the owner's unanswered questions) read `level`, never the wording.
 */
export const confidenceSchema = v.strictObject({
  /** 0-1: how likely the best unit holds the answer. */
  score: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  level: v.picklist(['answer', 'nearest', 'none']),
});
export type Confidence = v.InferOutput<typeof confidenceSchema>;

/** What the local brain knows: the n-gram model, the passage index of the same text, trained dialogue. */
export interface Knowledge {
  model: LanguageModel;
  passages: PassageIndex;
  dialogue?: readonly DialoguePair[];
}
