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

  it('drops running headers, and keeps a sentence that runs over a page break whole', async () => {
    const page = (number: number, lines: string[]) => [`Chapter 2: Using the tool ${number}`, '', ...lines];
    const bytes = tinyPdf([
      page(11, ['The tool reads its settings from a file', 'in your home directory when it', 'starts, and']),
      page(12, ['writes them back when it ends.', '', 'Nothing else is kept between runs.']),
      page(13, ['A third page keeps its header out too.']),
    ]);
    const text = await extractPdfText(bytes);
    expect(text).not.toContain('Chapter 2');
    const blocks = readDocument({ format: 'pdf', text }).sections.flatMap((section) => section.blocks);
    expect(blocks.map((block) => [block.text, block.page])).toEqual([
      [
        'The tool reads its settings from a file in your home directory when it starts, and writes them back when it ends.',
        1,
      ],
      ['Nothing else is kept between runs.', 2],
      ['A third page keeps its header out too.', 3],
    ]);
  });

  it('reads a term list by its layout: the term named on its entry, beside or above its description', async () => {
    const bytes = tinyPdf([
      [
        'These variables are set by the shell.',
        // The term alone, a synopsis set deeper, the description under the term.
        'break',
        { text: 'break [n]', x: 150 },
        { text: 'Exit from a for, while, or until loop. The return', x: 110 },
        { text: 'status is zero unless n is not at least 1.', x: 110 },
        '',
        // The term with its description beside it, the next line indented to where it starts.
        {
          runs: [
            { text: 'histchars', x: 72 },
            { text: 'The number of commands to remember in', x: 150 },
          ],
        },
        { text: 'the command history. The default value is 500.', x: 150 },
        '',
        {
          runs: [
            { text: 'noexec', x: 72 },
            { text: 'Same as -n.', x: 150 },
          ],
        },
        {
          runs: [
            { text: 'noglob', x: 72 },
            { text: 'Same as -f.', x: 150 },
          ],
        },
      ],
    ]);
    const blocks = readDocument({ format: 'pdf', text: await extractPdfText(bytes) }).sections.flatMap(
      (section) => section.blocks,
    );
    expect(blocks.map((block) => [block.kind, block.name, block.text])).toEqual([
      ['line', undefined, 'These variables are set by the shell.'],
      [
        'list-item',
        'break',
        'break: break [n] Exit from a for, while, or until loop. The return status is zero unless n is not at least 1.',
      ],
      [
        'list-item',
        'histchars',
        'histchars: The number of commands to remember in the command history. The default value is 500.',
      ],
      // A table's rows keep their cells apart.
      ['list-item', 'noexec', 'noexec: Same as -n.'],
      ['list-item', 'noglob', 'noglob: Same as -f.'],
    ]);
  });

  it('mends a word hyphenated at a line end, also in lines read a unit each', async () => {
    const bytes = tinyPdf([['The locale used to translate strings pre-', 'ceded by a dollar sign.']]);
    const blocks = readDocument({ format: 'pdf', text: await extractPdfText(bytes) }).sections.flatMap(
      (section) => section.blocks,
    );
    expect(blocks.map((block) => block.text)).toEqual([
      'The locale used to translate strings preceded by a dollar sign.',
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
