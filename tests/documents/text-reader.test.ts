import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Block, plainTextOf, readDocument, type Section } from '../../lib/documents/index.js';
import { KJV_DIR } from '../lm/corpus.js';

const read = (text: string) => readDocument({ format: 'text', text }).sections;
const blocksUnder = (sections: Section[], heading: string): Block[] =>
  sections.filter((section) => section.path[section.path.length - 1] === heading).flatMap((s) => s.blocks);

const FAQ = `The Example FAQ
---------------

Contents
--------

     1. Basics
          1.1. What is Example?
          1.2. How do I install Example?
     2. Problems
          2.1. How do I report a bug in Example?

1. Basics
=========

1.1. What is Example?
---------------------

Example is a small tool that prints examples. It was written to
show how an FAQ is read by its structure.

1.2. How do I install Example?
------------------------------

Run the installer, then restart your shell so that the new
command is found. To install it, execute the following command:

    sudo apt install example

2. Problems
===========

2.1. How do I report a bug in Example?
--------------------------------------

  * See section 1.2, "How do I install Example?"

Send a mail to the maintainers with the version you run and what
you saw happen instead of what you expected.
`;

describe('the text reader', () => {
  it('keeps a number wrapped to the start of a line mid-sentence in its paragraph (a PDF manual\'s "status of" / "127.")', () => {
    const sections = read(
      'Exit Status\n===========\n\n   If a command is not found, the child process created to execute it returns a status of\n127. If a command is found but is not executable, the return status is 126.\n',
    );
    const texts = sections.flatMap((section) => section.blocks.map((block) => block.text));
    expect(texts).toContain(
      'If a command is not found, the child process created to execute it returns a status of 127. If a command is found but is not executable, the return status is 126.',
    );
  });

  it('reads an FAQ: numbered, underlined headings, each entry with its own answer', () => {
    const sections = read(FAQ);
    const answer = blocksUnder(sections, 'How do I report a bug in Example?');
    expect(answer).toHaveLength(1);
    expect(answer[0]).toMatchObject({ kind: 'paragraph' });
    expect(answer[0].text).toMatch(
      /^Send a mail to the maintainers with the version you run and what you saw/,
    );
  });

  it('reads a DocBook FAQ in text: its title, "Chapter N." headings, questions wrapped over lines, term lists, no contents', () => {
    const faq = [
      '',
      '                      The Example GNU/Linux FAQ',
      '',
      '---------------------------------------------------------------------',
      '',
      '                            Version 11.0',
      '',
      '---------------------------------------------------------------------',
      '',
      'Table of Contents',
      '',
      '1. Basics of packages',
      '    1.1. What is an Essential, Required, Important, Standard,',
      '    Optional, or Extra package?',
      '    1.2. How do I put a package on hold?',
      '',
      'Chapter 1. Basics of packages',
      '',
      '1.1.\u00a0What is an Essential, Required, Important, Standard, Optional,',
      'or Extra package?',
      '',
      '    Each package is assigned a priority by the distribution',
      '    maintainers.',
      '',
      '1.2.\u00a0How do I put a package on hold?',
      '',
      '    With apt, use apt-mark hold package_name.',
      '',
      '    The individual scripts are:',
      '',
      '    prerm',
      '',
      '        This script typically stops any daemons of the package.',
      '',
      '    postrm',
      '',
      '        This script removes files created by the package.',
      '',
      '    To find the package of a file run either:',
      '',
      '      * dpkg --search foo',
      '',
      '        This searches installed packages only.',
      '',
      '      * apt-file search foo',
      '',
      '        This finds files of packages that are not installed.',
      '',
      '1.3. Numbered paragraphs that wrap onto a second line at the margin',
      'are prose when nothing indented follows them.',
      '',
      'More prose.',
      '',
    ].join('\n');
    const sections = read(faq);
    expect(sections.map((section) => section.path)).toEqual([
      [
        'The Example GNU/Linux FAQ',
        'Basics of packages',
        'What is an Essential, Required, Important, Standard, Optional, or Extra package?',
      ],
      ['The Example GNU/Linux FAQ', 'Basics of packages', 'How do I put a package on hold?'],
    ]);
    expect(sections[0].blocks.map((block) => block.text)).toEqual([
      'Each package is assigned a priority by the distribution maintainers.',
    ]);
    // A term list as DocBook prints it: the term, a blank line, its description indented under it.
    expect(sections[1].blocks.filter((block) => block.name).map((block) => [block.name, block.text])).toEqual(
      [
        ['prerm', 'prerm: This script typically stops any daemons of the package.'],
        ['postrm', 'postrm: This script removes files created by the package.'],
        // So is a list of commands, each explained in a paragraph indented under it after a blank line.
        ['dpkg --search foo', 'This searches installed packages only.'],
        ['apt-file search foo', 'This finds files of packages that are not installed.'],
      ],
    );
    const text = sections.flatMap((section) => section.blocks.map((block) => block.text)).join('\n');
    expect(text).not.toContain('Version 11.0');
    expect(text).toContain('Numbered paragraphs that wrap onto a second line at the margin are prose');
  });

  it('merges a heading with no body into the section that follows, keeping its text in the path', () => {
    const sections = read(FAQ);
    const paths = sections.map((section) => section.path.join(' > '));
    expect(paths).toContain('Basics > What is Example?');
    expect(paths).not.toContain('Basics');
    expect(paths).toContain('Problems > How do I report a bug in Example?');
  });

  it('ignores the table of contents and a bare "see section" cross-reference', () => {
    const sections = read(FAQ);
    const texts = sections.flatMap((section) => section.blocks.map((block) => block.text));
    expect(texts.some((text) => /Basics|What is Example\?|See section/.test(text))).toBe(false);
    expect(sections.some((section) => section.path.includes('Contents'))).toBe(false);
  });

  it('keeps an indented example whole, as code, after the sentence that announces it', () => {
    const blocks = blocksUnder(read(FAQ), 'How do I install Example?');
    expect(blocks.map((block) => block.kind)).toEqual(['paragraph', 'code']);
    expect(blocks[0].text).toMatch(/execute the following command:$/);
    expect(blocks[1].text).toBe('sudo apt install example');
  });

  it('reads a manual page: header, sections in capitals, subsections, option entries with their names', () => {
    const page = [
      'FROB(1)                     User Commands                     FROB(1)',
      '',
      'NAME',
      '       frob - frobnicate files',
      '',
      'OPTIONS',
      '   Matching Control',
      '       -i, --ignore-case',
      '              Ignore case distinctions in patterns and input data,',
      '              so that characters that differ only in case match.',
      '',
      '       -c, --connections NUM',
      '              The number of concurrent connections to use.',
      '',
      '       --help Output a usage message and exit.',
      '',
      'ENVIRONMENT',
      '       FROB_COLOR            The colour of the output, red unless',
      '                             set otherwise.',
      '',
      'GNU frob 1.0                    2024-01-01                    FROB(1)',
    ].join('\n');
    const sections = read(page);
    expect(sections.map((section) => section.path)).toEqual([
      ['FROB(1)', 'NAME'],
      ['FROB(1)', 'OPTIONS', 'Matching Control'],
      ['FROB(1)', 'ENVIRONMENT'],
    ]);
    const options = sections[1].blocks;
    expect(options.map((block) => block.name)).toEqual([
      '-i, --ignore-case',
      '-c, --connections NUM',
      '--help',
    ]);
    expect(options[0]).toMatchObject({
      kind: 'list-item',
      text: '-i, --ignore-case: Ignore case distinctions in patterns and input data, so that characters that differ only in case match.',
    });
    expect(sections[2].blocks[0]).toMatchObject({
      kind: 'list-item',
      name: 'FROB_COLOR',
      text: 'FROB_COLOR: The colour of the output, red unless set otherwise.',
    });
    const all = sections.flatMap((section) => section.blocks.map((block) => block.text)).join('\n');
    expect(all).not.toContain('GNU frob 1.0');
  });

  it('names an entry by all the forms stacked above its description, and reads two-column tables as terms', () => {
    const page = [
      'OPTIONS',
      '     -L [bind_address:]port:host:hostport',
      '     -L local_socket:remote_socket',
      '             Specifies that connections to the given TCP port on the local',
      '             host are to be forwarded to the given host and port.',
      '',
      'ESCAPE CHARACTERS',
      '     ~.      Disconnect.',
      '',
      '     ~^Z     Background ssh.',
    ].join('\n');
    const [options, escapes] = read(page);
    expect(options.blocks).toEqual([
      {
        kind: 'list-item',
        name: '-L [bind_address:]port:host:hostport, -L local_socket:remote_socket',
        text: '-L [bind_address:]port:host:hostport, -L local_socket:remote_socket: Specifies that connections to the given TCP port on the local host are to be forwarded to the given host and port.',
        line: 2,
      },
    ]);
    expect(escapes.blocks.map((block) => [block.name, block.text])).toEqual([
      ['~.', '~.: Disconnect.'],
      ['~^Z', '~^Z: Background ssh.'],
    ]);
  });

  it('reads a term list whose entries mix both forms, and keeps terms that spell a heading in other case', () => {
    const text = [
      'Set Options',
      '===========',
      '',
      'Options, if specified, have the following meanings:',
      '',
      '    -a',
      '               Mark each variable for export.',
      '',
      '    emacs',
      '               Use an emacs-style line editing interface.',
      '',
      '    hashall    Same as -h.',
      '',
      '    histexpand',
      '               Same as -H.',
      '',
      'Index',
      '=====',
      '',
      'A',
      '=',
      '',
      'EMACS',
      '    Set when the shell runs inside an editor buffer.',
    ].join('\n');
    const entries = blocksUnder(read(text), 'Set Options').map((block) => [block.name, block.text]);
    expect(entries).toEqual([
      [undefined, 'Options, if specified, have the following meanings:'],
      // "-a" is not a contents line of the index's letter heading "A", nor "emacs" of "EMACS".
      ['-a', '-a: Mark each variable for export.'],
      ['emacs', 'emacs: Use an emacs-style line editing interface.'],
      // Beside its term, in the column the neighbours' descriptions are indented to.
      ['hashall', 'hashall: Same as -h.'],
      ['histexpand', 'histexpand: Same as -H.'],
    ]);
  });

  it('reads a term whose description runs over 50,000 lines as one entry (joined in linear time)', () => {
    const lines = ['term', ...Array.from({ length: 50_000 }, (_, i) => `    description line ${i}`)];
    const [entry] = read(lines.join('\n')).flatMap((section) => section.blocks);
    expect(entry.name).toBe('term');
    expect(entry.text.startsWith('term: description line 0 description line 1 ')).toBe(true);
    expect(entry.text.endsWith('description line 49999')).toBe(true);
  });

  it('reads a paragraph and an example of 300,000 lines each without overflowing the stack', () => {
    const prose = Array.from({ length: 300_000 }, (_, i) => `this is line ${i} of a long paragraph`);
    expect(read(prose.join('\n')).flatMap((section) => section.blocks).length).toBeGreaterThan(0);
    const example = ['Example:', '', ...Array.from({ length: 300_000 }, (_, i) => `    x = ${i};`)];
    const blocks = read(example.join('\n')).flatMap((section) => section.blocks);
    expect(blocks.map((block) => block.kind)).toEqual(['line', 'code']);
  });

  it('reads a command listing whose terms carry arguments, after a prompt line, as terms', () => {
    const [section] = read(
      [
        'tally> help',
        'count FIELD ?N?      Count the rows where FIELD is set',
        'drop NAME            Forget the table NAME and its rows',
        'wait MS              Try again for MS milliseconds when busy',
        '                     then give up with an error',
      ].join('\n'),
    );
    expect(section.blocks.map((block) => [block.kind, block.name ?? block.text])).toEqual([
      ['line', 'tally> help'],
      ['list-item', 'count FIELD ?N?'],
      ['list-item', 'drop NAME'],
      ['list-item', 'wait MS'],
    ]);
    expect(section.blocks[3].text).toBe(
      'wait MS: Try again for MS milliseconds when busy then give up with an error',
    );
  });

  it('does not mistake justified prose for a table', () => {
    const [section] = read(
      'This  is the default behaviour. The --no-verbatim option op\u2010\ntion  is provided to restore it after the other.\n',
    );
    expect(section.blocks.map((block) => block.kind)).toEqual(['paragraph']);
  });

  it('reads vim help: *tag* headings, capitals under them, and the example after a line ending in ">"', () => {
    const help = [
      '*usr_99.txt*\tFor Vim version 9.0.  Last change: 2024 Jan 01',
      '',
      '|99.1|\tRemoving spaces',
      '',
      '==============================================================================',
      '*99.1*\tRemoving spaces',
      '',
      'To remove whitespace at the end of every line, execute the following command: >',
      '',
      '\t:%s/\\s\\+$//',
      '',
      'The "%" range means every line.',
      '',
      'A BETTER WAY',
      '',
      'Use a mapping when you do this often.',
    ].join('\n');
    const sections = read(help);
    expect(sections.map((section) => section.path)).toEqual([
      ['Removing spaces'],
      ['Removing spaces', 'A BETTER WAY'],
    ]);
    const [announce, example, after] = sections[0].blocks;
    expect(announce.text).toBe(
      'To remove whitespace at the end of every line, execute the following command:',
    );
    expect(example).toMatchObject({ kind: 'code', text: ':%s/\\s\\+$//' });
    expect(after.text).toBe('The "%" range means every line.');
  });

  it('joins hard-wrapped paragraphs and mends words hyphenated across lines', () => {
    const [section] = read(
      'The archive is opened and its\nentries are read one by one, speci\u2010\nfied by name.\n',
    );
    expect(section.blocks).toEqual([
      {
        kind: 'paragraph',
        text: 'The archive is opened and its entries are read one by one, specified by name.',
        line: 1,
      },
    ]);
  });

  it('keeps a text of one sentence a line as lines, and gives the model the same lines back', () => {
    const verses = [
      'In the beginning God created the heaven and the earth.',
      'And the earth was without form, and void; and darkness was upon the face of the deep.',
      'And God said, Let there be light: and there was light.',
    ].join('\n');
    const document = readDocument({ format: 'text', text: verses });
    expect(document.sections).toHaveLength(1);
    expect(document.sections[0].blocks.map((block) => [block.kind, block.line])).toEqual([
      ['line', 1],
      ['line', 2],
      ['line', 3],
    ]);
    expect(plainTextOf(document)).toBe(verses);
  });

  it("reads a numbered FAQ question wrapped with a hanging indent as a heading, not as its neighbour's answer", () => {
    const text = [
      '34. Is there a Java version of the library?',
      '',
      '    Probably what you want is to use the library from Java.',
      '',
      '35. I get this or that compiler warning when I crank it',
      '    up to maximally-pedantic. Can you not write proper code?',
      '',
      '    Many years ago, we gave up avoiding warnings on every compiler.',
      '',
      '36. The installer',
      '    copies the files.',
      '',
      '    A numbered paragraph with a hanging indent is no heading.',
      '',
    ].join('\n');
    const sections = read(text);
    expect(sections.map((section) => section.path.at(-1))).toEqual([
      'Is there a Java version of the library?',
      'I get this or that compiler warning when I crank it up to maximally-pedantic. Can you not write proper code?',
    ]);
    expect(sections[1].blocks[0].text).toBe(
      'Many years ago, we gave up avoiding warnings on every compiler.',
    );
  });

  it('reads a sentence broken around a command set on its own line as one paragraph', () => {
    const text = [
      '5.8. How can I check which release I am running?',
      '',
      '   In order to make sure that your system was installed from a real',
      '   release, use the',
      '',
      '   release-info -a',
      '',
      '   command. It will display the name of the release and its version.',
      '',
      '   Each release has a codename, and the codename never changes.',
      '',
    ].join('\n');
    const blocks = read(text).flatMap((section) => section.blocks);
    expect(blocks.map((block) => block.text)).toEqual([
      'In order to make sure that your system was installed from a real release, use the release-info -a command. It will display the name of the release and its version.',
      'Each release has a codename, and the codename never changes.',
    ]);
  });

  const kjv = join(KJV_DIR, 'kjv.raw.txt');
  it('reads the KJV as one line block per verse, and reports how long it took', () => {
    const text = readFileSync(kjv, 'utf8');
    const started = performance.now();
    const sections = read(text);
    const took = performance.now() - started;
    const verses = text.split('\n').filter((line) => line.trim() !== '').length;
    expect(sections).toHaveLength(1);
    expect(sections[0].blocks).toHaveLength(verses);
    expect(sections[0].blocks.every((block) => block.kind === 'line')).toBe(true);
    console.log(`KJV (${(text.length / 1e6).toFixed(1)} MB) read in ${took.toFixed(0)} ms`);
  });
});
