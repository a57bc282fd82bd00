import { extractPdfText } from '../extract-pdf.js';
import { plainTextOf } from '../plain-text.js';
import { readDocument } from '../read-document.js';
import type { DocumentFormat } from '../types.js';
import type { ReadLimits } from './limits.js';
import { checkNesting } from './nesting.js';
import { type ReadRefusal, ReadRefused } from './refusal.js';

/** What a worker is asked to read: a PDF's bytes, or a text document to check. */
export type ReadJob =
  | { kind: 'pdf'; bytes: Uint8Array }
  | { kind: 'text'; format: DocumentFormat; text: string };

/** A read's answer: the text (a PDF's extracted text; a text document's own), or why not. */
export type ReadOutcome =
  | { ok: true; text?: string }
  | { ok: false; refusal: ReadRefusal /** the library's words, for the log */; detail?: string };

/**
 * Reads a document the way training will (extraction for a PDF, then the format's reader), so a
 * document that passes here reads on the request's thread within the same bounds. A stack
 * overflow means nesting the line-based check did not see (inline markup): refused by MAX_NESTING.
 */
export async function runReadJob(job: ReadJob, limits: ReadLimits): Promise<ReadOutcome> {
  try {
    if (job.kind === 'pdf') {
      const text = await extractPdfText(job.bytes, limits);
      plainTextOf(readDocument({ format: 'pdf', text }));
      return { ok: true, text };
    }
    checkNesting(job.format, job.text, limits.maxNesting);
    const started = performance.now();
    plainTextOf(readDocument({ format: job.format, text: job.text }));
    // The request's thread reads an accepted document again (and so does every other instance):
    // only one that reads well within the deadline is accepted.
    const readMs = Math.round(performance.now() - started);
    const repeatBudgetMs = Math.floor(limits.timeoutMs / 2);
    if (readMs > repeatBudgetMs) {
      return { ok: false, refusal: { limit: 'repeat_time', found: readMs, max: repeatBudgetMs } };
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof ReadRefused) {
      return { ok: false, refusal: error.refusal, ...detailOf(error.detail) };
    }
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return { ok: false, refusal: { limit: 'MAX_NESTING', max: limits.maxNesting }, ...detailOf(error) };
    }
    return { ok: false, refusal: { limit: 'unreadable' }, ...detailOf(error) };
  }
}

function detailOf(error: unknown): { detail?: string } {
  if (error === undefined) return {};
  return { detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
