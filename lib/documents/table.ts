import type { DocumentFormat } from './types.js';

/**
 * A document as the owner sees it in the document table: one entry per id, written in the same
 * transaction as the chunks that teach it, deleted in the same transaction as the log entry that
 * forgets them.
 */
export interface DocumentRecord {
  id: string;
  name: string;
  format: DocumentFormat;
  /** Bytes sent: the file as it is, or the text as UTF-8 (for parts, all of them). */
  bytes: number;
  /** SHA-256 (hex) of those bytes. */
  sha256: string;
  /** Passages the document gives the index. */
  passages: number;
  url?: string;
  /** ISO time of the train that made this version. */
  trainedAt: string;
  /** What it adds to the corpus totals (subtracted when it is forgotten). */
  totals: { characters: number; bytes: number; tokens: number };
}

/** The entry as stored: JSON. */
export function encodeDocumentRecord(record: DocumentRecord): string {
  return JSON.stringify(record);
}

/** An entry read back; undefined when damaged (never trusted blindly: the table is user-visible). */
export function decodeDocumentRecord(raw: string | undefined): DocumentRecord | undefined {
  if (!raw) return undefined;
  try {
    const record = JSON.parse(raw) as DocumentRecord;
    if (typeof record.id !== 'string' || typeof record.sha256 !== 'string') return undefined;
    record.totals ??= { characters: 0, bytes: 0, tokens: 0 };
    return record;
  } catch {
    return undefined;
  }
}

/** What GET /api/admin/documents shows of an entry (the totals stay inside). */
export function publicDocument(record: DocumentRecord): Omit<DocumentRecord, 'totals'> {
  const { totals: _totals, ...shown } = record;
  return shown;
}
