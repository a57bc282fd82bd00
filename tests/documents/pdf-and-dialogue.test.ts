import { describe, expect, it } from 'vitest';
import {
  DEFAULT_READ_LIMITS,
  extractPdfText,
  readBounded,
  readDialogue,
  readDocument,
} from '../../lib/documents/index.js';
import { HttpError } from '../../lib/http/index.js';
import { tinyPdf } from './tiny-pdf.js';

describe('PDF text extraction', () => {
  it('extracts each page, headings from their larger type, and the reader keeps page numbers', async () => {
    const bytes = tinyPdf([
      [
        { text: 'Installing', size: 18 },
        'Run the installer and follow the steps it shows',
        'on the screen until it is done.',
      ],
      [{ text: 'Removing', size: 18 }, 'Delete the folder to remove it.'],
    ]);
    const text = await extractPdfText(bytes);
    expect(text.split('\f')).toHaveLength(2);
    const document = readDocument({ format: 'pdf', name: 'guide.pdf', text });
    expect(document.sections).toEqual([
      {
        path: ['Installing'],
        page: 1,
        blocks: [
          expect.objectContaining({
            kind: 'paragraph',
            text: 'Run the installer and follow the steps it shows on the screen until it is done.',
            page: 1,
          }),
        ],
      },
      {
        path: ['Removing'],
        page: 2,
        blocks: [expect.objectContaining({ text: 'Delete the folder to remove it.', page: 2 })],
      },
    ]);
  });

  it('refuses bytes that are not a PDF, and a PDF without text, with 400 and the reason', async () => {
    const notPdf = await readBounded(
      { kind: 'pdf', bytes: new TextEncoder().encode('hello, I am not a PDF') },
      DEFAULT_READ_LIMITS,
    ).catch((e: unknown) => e);
    expect(notPdf).toBeInstanceOf(HttpError);
    expect(notPdf).toMatchObject({ status: 400, extra: { reason: 'unreadable_pdf' } });
    expect((notPdf as Error).message).toMatch(/^The PDF could not be read: it is damaged/);
    const blank = await readBounded({ kind: 'pdf', bytes: tinyPdf([[]]) }, DEFAULT_READ_LIMITS).catch(
      (e: unknown) => e,
    );
    expect(blank).toMatchObject({ status: 400, extra: { reason: 'pdf_without_text' } });
  });
});

describe('the dialogue reader', () => {
  it('pairs User/Assistant turns and Q/A pairs, a turn running on over its lines', () => {
    const text = [
      'User: hello there',
      'Assistant: Hello! How can I help?',
      '',
      'Q: What are your hours?',
      'A: We open at nine',
      'and close at five.',
      'User: a prompt with no answer',
    ].join('\n');
    expect(readDialogue(text)).toEqual([
      { prompt: 'hello there', reply: 'Hello! How can I help?' },
      { prompt: 'What are your hours?', reply: 'We open at nine and close at five.' },
    ]);
  });

  it('finds no pairs in text without turn markers', () => {
    expect(readDialogue('Just some prose.\nNo turns here.')).toEqual([]);
  });
});
