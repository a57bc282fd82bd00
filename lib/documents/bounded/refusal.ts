import { HttpError } from '../../http/errors.js';
import { formatByteLimit } from '../../vision/limits.js';

/**
 * Why a document was refused, as plain data: the reader runs in a worker thread and sends this
 * back, and the request side turns it into the one HttpError (`refusalError`).
 */
export interface ReadRefusal {
  /** Which bound was hit, or `unreadable` for a PDF that cannot be read / holds no text. */
  limit:
    | 'MAX_PDF_PAGES'
    | 'MAX_INFLATED_BYTES'
    | 'MAX_NESTING'
    | 'nesting_work'
    | 'DOCUMENT_READ_TIMEOUT_MS'
    | 'repeat_time'
    | 'memory'
    | 'text'
    | 'page_tree'
    | 'unreadable'
    | 'no_text';
  /** What was found (pages counted, depth reached ...), when known. */
  found?: number;
  /** The bound's value. */
  max?: number;
}

/** Thrown inside a reader when a bound is hit; carries the refusal across the worker boundary. */
export class ReadRefused extends Error {
  constructor(
    readonly refusal: ReadRefusal,
    /** The library's own error, for the log only. */
    readonly detail?: unknown,
  ) {
    super(`document refused: ${refusal.limit}`);
    this.name = 'ReadRefused';
  }
}

/** The response a refusal becomes: 413 for size bounds, 422 for structure and time, 400 unreadable. */
export function refusalError(refusal: ReadRefusal, subject = 'PDF'): HttpError {
  const { limit, found, max } = refusal;
  const extra = { limit, ...(found !== undefined ? { found } : {}), ...(max !== undefined ? { max } : {}) };
  switch (limit) {
    case 'MAX_PDF_PAGES':
      return new HttpError(
        'payload_too_large',
        `The PDF has ${found !== undefined ? `${found}` : 'more'} pages; at most ${max} are read (MAX_PDF_PAGES). Split it into smaller files.`,
        extra,
      );
    case 'MAX_INFLATED_BYTES':
      return new HttpError(
        'payload_too_large',
        `The PDF's compressed streams expand to more than ${formatByteLimit(max ?? 0)} (MAX_INFLATED_BYTES).`,
        extra,
      );
    case 'text':
      return new HttpError(
        'payload_too_large',
        `The document's text is larger than ${formatByteLimit(max ?? 0)}; send at most that per request (split the file).`,
        extra,
      );
    case 'MAX_NESTING':
      return new HttpError(
        'document_too_complex',
        `The document nests elements ${found !== undefined ? `${found}` : 'more than'} levels deep; at most ${max} are read (MAX_NESTING).`,
        extra,
      );
    case 'nesting_work':
      return new HttpError(
        'document_too_complex',
        `The document nests lists or quotes ${found} levels deep over too much text to read in reasonable time; nest less deeply or split it (MAX_NESTING).`,
        { ...extra, limit: 'MAX_NESTING' },
      );
    case 'repeat_time':
      return new HttpError(
        'document_too_complex',
        `Reading the document took ${found} ms; every server instance reads a trained document again, so at most ${max} ms is accepted (half of DOCUMENT_READ_TIMEOUT_MS).`,
        { ...extra, limit: 'DOCUMENT_READ_TIMEOUT_MS' },
      );
    case 'DOCUMENT_READ_TIMEOUT_MS':
      return new HttpError(
        'document_too_complex',
        `Reading the document took longer than ${max} ms (DOCUMENT_READ_TIMEOUT_MS); it was stopped.`,
        extra,
      );
    case 'memory':
      return new HttpError(
        'document_too_complex',
        'Reading the document needed more memory than a document may use; it was stopped.',
        extra,
      );
    case 'page_tree':
      return new HttpError(
        'document_too_complex',
        "The PDF's page tree is malformed (a page is reached twice, or the tree loops).",
        extra,
      );
    case 'no_text':
      return new HttpError(
        'bad_request',
        'The PDF holds no text to learn from (scanned pages are images; run text recognition first).',
        { reason: 'pdf_without_text' },
      );
    default:
      return subject === 'PDF'
        ? new HttpError('bad_request', 'The PDF could not be read: it is damaged, encrypted or not a PDF.', {
            reason: 'unreadable_pdf',
          })
        : new HttpError('document_too_complex', `The ${subject} could not be read.`, { limit });
  }
}
