import type { DocumentFormat, StoredDocument } from './types.js';

/**
 * Chunks in the store are strings. A plain-text chunk is stored as it was trained (so every chunk
 * written before formats existed still reads as `text`); any other format, or a named file, gets
 * one header line first: MARK + JSON of { format, name }.
 */
const MARK = '\u0001doc ';
const FORMATS: readonly DocumentFormat[] = ['text', 'markdown', 'html', 'pdf', 'dialogue'];

/** The string stored for a document. */
export function encodeChunk(document: StoredDocument): string {
  if (document.format === 'text' && document.name === undefined) return document.text;
  const header = JSON.stringify({
    format: document.format,
    ...(document.name ? { name: document.name } : {}),
  });
  return `${MARK}${header}\n${document.text}`;
}

/** The document a stored chunk holds (a chunk without a header is plain text). */
export function decodeChunk(raw: string): StoredDocument {
  if (!raw.startsWith(MARK)) return { format: 'text', text: raw };
  const end = raw.indexOf('\n');
  if (end < 0) return { format: 'text', text: raw };
  try {
    const header = JSON.parse(raw.slice(MARK.length, end)) as { format?: unknown; name?: unknown };
    const format = FORMATS.includes(header.format as DocumentFormat)
      ? (header.format as DocumentFormat)
      : 'text';
    const name = typeof header.name === 'string' ? header.name : undefined;
    return { format, ...(name ? { name } : {}), text: raw.slice(end + 1) };
  } catch {
    return { format: 'text', text: raw };
  }
}
