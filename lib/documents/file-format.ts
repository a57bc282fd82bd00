import { HttpError } from '../http/index.js';
import type { DocumentFormat } from './types.js';

/** The file kinds a training upload may be, and the format each is stored as. */
const BY_EXTENSION: Record<string, DocumentFormat> = {
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  pdf: 'pdf',
};

const BY_TYPE: Record<string, DocumentFormat> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
};

/** File name endings `npm run train` and the upload accept. */
export const DOCUMENT_EXTENSIONS: readonly string[] = Object.keys(BY_EXTENSION).map((ext) => `.${ext}`);

/**
 * The format of a file from its name's extension, else (a name without one) its declared type;
 * undefined for another kind.
 */
export function formatOfFile(filename?: string, contentType?: string): DocumentFormat | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(filename ?? '')?.[1]?.toLowerCase();
  // A name that says another kind (a.png, report.docx) wins over a declared type.
  if (extension) return BY_EXTENSION[extension];
  const type = contentType?.split(';')[0].trim().toLowerCase();
  if (type && BY_TYPE[type]) return BY_TYPE[type];
  return undefined;
}

/** As `formatOfFile`, or HttpError 415 naming the kinds accepted. */
export function requireFormatOfFile(filename?: string, contentType?: string): DocumentFormat {
  const format = formatOfFile(filename, contentType);
  if (format) return format;
  throw new HttpError(
    'unsupported_media_type',
    `${filename ? `"${filename}"` : 'This file'} is not a kind the service can learn from; send .txt, .md, .html or .pdf.`,
  );
}
