import { extractText, getDocumentProxy } from 'unpdf';
import { HttpError } from '../http/index.js';

/**
 * The text of a PDF, pages separated by form feeds (\f), lines kept. Throws HttpError 400 with the
 * reason when the bytes are not a readable PDF (damaged, encrypted) or hold no text (scanned pages).
 */
export async function extractPdfText(bytes: Uint8Array): Promise<string> {
  let pages: string[];
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    pages = (await extractText(pdf, { mergePages: false })).text;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError('bad_request', `The PDF could not be read: ${reason}.`, { reason: 'unreadable_pdf' });
  }
  const text = pages.map((page) => page.replace(/[ \t]+\n/g, '\n').trimEnd()).join('\f');
  if (text.replace(/\f/g, '').trim() === '') {
    throw new HttpError(
      'bad_request',
      'The PDF holds no text to learn from (scanned pages are images; run text recognition first).',
      { reason: 'pdf_without_text' },
    );
  }
  return text;
}
