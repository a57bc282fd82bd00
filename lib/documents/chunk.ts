import type { DocumentFormat, StoredDocument } from './types.js';

/**
 * Chunks in the store are strings. A plain-text chunk is stored as it was trained (so every chunk
 * written before formats existed still reads as `text`); any other format, a named file, or a
 * document with an id gets one header line first: MARK + JSON of { format, name, documentId, url }.
 */
const MARK = '\u0001doc ';
/** A log event, not a text: every chunk of the document named here so far is forgotten. */
const FORGET_MARK = '\u0001forget ';
const FORMATS: readonly DocumentFormat[] = ['text', 'markdown', 'html', 'pdf', 'dialogue', 'vimhelp'];

/** The string stored for a document. */
export function encodeChunk(document: StoredDocument): string {
  if (
    document.format === 'text' &&
    document.name === undefined &&
    document.documentId === undefined &&
    document.url === undefined
  )
    return document.text;
  const header = JSON.stringify({
    format: document.format,
    ...(document.name ? { name: document.name } : {}),
    ...(document.documentId ? { documentId: document.documentId } : {}),
    ...(document.url ? { url: document.url } : {}),
  });
  return `${MARK}${header}\n${document.text}`;
}

/** The log entry that forgets every chunk the document `documentId` has so far (a delete, or before a replace). */
export function encodeForget(documentId: string): string {
  return `${FORGET_MARK}${JSON.stringify({ documentId })}`;
}

/** The document id a forget entry names, or undefined when `raw` is not one. */
export function forgottenIdOf(raw: string): string | undefined {
  if (!raw.startsWith(FORGET_MARK)) return undefined;
  try {
    const event = JSON.parse(raw.slice(FORGET_MARK.length)) as { documentId?: unknown };
    return typeof event.documentId === 'string' ? event.documentId : undefined;
  } catch {
    return undefined;
  }
}

/** The document a stored chunk holds (a chunk without a header is plain text). */
export function decodeChunk(raw: string): StoredDocument {
  if (!raw.startsWith(MARK)) return { format: 'text', text: raw };
  const end = raw.indexOf('\n');
  if (end < 0) return { format: 'text', text: raw };
  try {
    const header = JSON.parse(raw.slice(MARK.length, end)) as {
      format?: unknown;
      name?: unknown;
      documentId?: unknown;
      url?: unknown;
    };
    const format = FORMATS.includes(header.format as DocumentFormat)
      ? (header.format as DocumentFormat)
      : 'text';
    const name = typeof header.name === 'string' ? header.name : undefined;
    const documentId = typeof header.documentId === 'string' ? header.documentId : undefined;
    const url = typeof header.url === 'string' ? header.url : undefined;
    return {
      format,
      ...(name ? { name } : {}),
      ...(documentId ? { documentId } : {}),
      ...(url ? { url } : {}),
      text: raw.slice(end + 1),
    };
  } catch {
    return { format: 'text', text: raw };
  }
}
