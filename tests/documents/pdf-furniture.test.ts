import { describe, expect, it } from 'vitest';
import { extractPdfText, readDocument } from '../../lib/documents/index.js';
import { tinyPdf } from './tiny-pdf.js';

/** The blocks the text reader makes of a PDF's text, as [text, page]. */
async function blocksOf(pages: Parameters<typeof tinyPdf>[0]): Promise<[string, number | undefined][]> {
  const text = await extractPdfText(tinyPdf(pages));
  return readDocument({ format: 'pdf', text })
    .sections.flatMap((section) => section.blocks)
    .map((block) => [block.text, block.page]);
}

describe("a printed manual's furniture", () => {
  it('drops a table of contents and an index, whose dot leaders run to page numbers', async () => {
    const contents = [
      { text: 'Table of Contents', size: 18 },
      '1 Getting started . . . . . . . . . . . . . . . . 2',
      '1.1 How do I install the tool? . . . . . . . . . . 2',
      '1.2 How do I remove the tool again when I no',
      'longer need it? . . . . . . . . . . . . . . . . . 3',
      '2 Settings . . . . . . . . . . . . . . . . . . . . 4',
      '2.1 Where are the settings kept? . . . . . . . . . 4',
    ];
    const index = [
      { text: 'Index', size: 18 },
      'folder ........................ 3',
      'installer ..................... 2',
      'settings file ................. 4',
      'uninstall ..................... 3',
      'upgrade ....................... 2',
    ];
    const text = await extractPdfText(
      tinyPdf([
        contents,
        [{ text: 'Getting started', size: 18 }, 'Run the installer and follow the steps it shows.'],
        [{ text: 'Settings', size: 18 }, 'The settings are kept in a file in your home folder.'],
        index,
      ]),
    );
    expect(text).not.toMatch(/\.\s*\.\s*\.\s*\.|Table of Contents|longer need it/);
    expect(text).toContain('Run the installer and follow the steps it shows.');
    expect(text).toContain('The settings are kept in a file in your home folder.');
  });

  it("drops a short chapter's running head, which repeats on too few pages, by its page number", async () => {
    const blocks = await blocksOf([
      [{ text: '1 Introduction', size: 18 }, 'The tool copies files from one place to another.'],
      ['Chapter 1: Introduction 2', '', 'It keeps their dates and their permissions.'],
      [{ text: '2 Usage', size: 18 }, 'Give it the source and the destination.'],
      ['Chapter 2: Usage 4', '', 'A folder is copied with everything in it.'],
    ]);
    expect(blocks.map(([text]) => text).join(' ')).not.toContain('Chapter');
    expect(blocks).toContainEqual(['It keeps their dates and their permissions.', 2]);
    expect(blocks).toContainEqual(['A folder is copied with everything in it.', 4]);
    const text = await extractPdfText(
      tinyPdf([
        [{ text: '1 Introduction', size: 18 }, 'The tool copies files.'],
        ['Chapter 1: Introduction 2', '', 'It keeps their dates.'],
      ]),
    );
    // The chapter's heading, set larger, carries a number too but is no page's: it stays.
    expect(text).toContain('1 Introduction');
  });

  it('keeps an example indented on a page that holds nothing at the margin once its head is gone', async () => {
    const text = await extractPdfText(
      tinyPdf([
        [
          'Chapter 3: Examples 7',
          '',
          'A rule names a pattern and what to do with it:',
          'The line below is one.',
        ],
        [
          'Chapter 3: Examples 8',
          '',
          { text: '%%', x: 108 },
          { text: 'username    printf( "%s", getlogin() );', x: 108 },
          { text: '%%', x: 108 },
        ],
        ['Chapter 3: Examples 9', '', 'That rule prints the login name in place of the word.'],
      ]),
    );
    expect(text).toMatch(/^ {2,}username {2,}printf/m);
    expect(text).not.toContain('Chapter 3');
  });
});

describe("a printed manual's headings", () => {
  it('reads a title that wraps onto a second line in the same type as one heading', async () => {
    const text = await extractPdfText(
      tinyPdf([
        [
          { text: 'Functions and Macros Available in', size: 18 },
          { text: 'Reentrant Scanners', size: 18 },
          '',
          'Every function takes the scanner as its last argument.',
        ],
      ]),
    );
    const sections = readDocument({ format: 'pdf', text }).sections;
    expect(sections.map((section) => section.path.at(-1))).toEqual([
      'Functions and Macros Available in Reentrant Scanners',
    ]);
  });

  it('reads an appendix as a chapter, and its numbered sections under it', () => {
    const text = [
      '10 Installing',
      '-------------',
      '',
      'Run the installer.',
      '',
      'Appendix A Reporting Bugs',
      '-------------------------',
      '',
      'Send a report to the list.',
      '',
      'A.1 What to include',
      '~~~~~~~~~~~~~~~~~~~',
      '',
      'The version and the steps that show the bug.',
    ].join('\n');
    const paths = readDocument({ format: 'pdf', text }).sections.map((section) => section.path.join(' > '));
    expect(paths).toEqual(['Installing', 'Reporting Bugs', 'Reporting Bugs > What to include']);
  });
});

describe('dot leaders that are not a table of contents', () => {
  it("keeps a price list's lines, whose numbers are no pages of the document", async () => {
    const text = await extractPdfText(
      tinyPdf([
        [
          { text: 'Drinks', size: 18 },
          'Espresso . . . . . . . . . . . . 3',
          'Flat white . . . . . . . . . . . 4',
          'Hot chocolate . . . . . . . . . 5',
          'Pot of tea for two . . . . . . . 7',
          'Fresh orange juice . . . . . . . 6',
        ],
      ]),
    );
    expect(text).toContain('Pot of tea for two');
    expect(text).toContain('Espresso');
  });
});
