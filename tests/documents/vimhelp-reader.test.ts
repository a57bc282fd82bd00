import { describe, expect, it } from 'vitest';
import { decodeChunk, plainTextOf, readDocument } from '../../lib/documents/index.js';
import { isVimHelp, readVimHelp } from '../../lib/documents/readers/vimhelp.js';
import { endpoint } from '../../lib/http/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { trainingKeys } from '../../lib/training/index.js';
import { postJson, redisServices } from '../support/services.js';

/** A small chapter of a manual in Vim's help format, with each of its conventions once. */
const CHAPTER = [
  '*usr_77.txt*\tFor Vim version 9.0.  Last change: 2024 Jan 01',
  '',
  '\t\t     VIM USER MANUAL - by Bram Moolenaar',
  '',
  '\t\t\t      Recording changes',
  '',
  '',
  'This chapter shows how to record what you type and play it back.',
  '',
  '|77.1|\tRecord and playback',
  '|77.2|\tSubstitution',
  '',
  '     Next chapter: |usr_78.txt|  Clever tricks',
  ' Previous chapter: |usr_76.txt|  Making small changes',
  'Table of contents: |usr_toc.txt|',
  '',
  '==============================================================================',
  '*77.1*\tRecord and playback\t\t\t\t*recording* *macro*',
  '',
  'The "q{register}" command starts recording keystrokes into the register.',
  'Use |@| to execute the register, see |complex-repeat|.',
  '   A count before it repeats the playback that many times.',
  '',
  '\tqa\t\t\tStart recording a macro in register a.',
  '\t^\t\t\tMove to the beginning of the line.',
  '\ti#include "<Esc>\tInsert the string #include " at the beginning',
  '\t\t\t\tof the line.',
  '\tq\t\t\tStop recording the macro.',
  '',
  'To play it back three times, type: >',
  '',
  '\t3@a',
  '',
  'The text then looks like this:',
  '',
  '\t#include "stdio.h" ~',
  '\t#include "fcntl.h" ~',
  '',
  'USING REGISTERS',
  '',
  'x\tdelete character under the cursor',
  'dw\tdelete from cursor to next start of word',
  'If you use "c" instead of "d" they become change commands.',
  '',
  'The registers used for recording are the same ones you used for yank.',
  '',
  '==============================================================================',
  '*77.2*\tSubstitution\t\t\t\t\t\t*find-replace*',
  '',
  'To change every occurrence on the line, add the g flag: >',
  '\t:%s/Professor/Teacher/g',
  '<The c flag asks before each change.',
  '',
  '==============================================================================',
  '',
  'Next chapter: |usr_78.txt|  Clever tricks',
  '',
  'Copyright: see |manual-copyright|  vim:tw=78:ts=8:noet:ft=help:norl:',
  '',
].join('\n');

describe('the Vim help reader', () => {
  const { title, sections } = readVimHelp(CHAPTER);

  it('takes the chapter title, and heads sections by their numbered headings without tags', () => {
    expect(title).toBe('Recording changes');
    expect(sections.map((section) => section.path)).toEqual([
      ['Recording changes'],
      ['Recording changes', 'Record and playback'],
      ['Recording changes', 'Record and playback', 'USING REGISTERS'],
      ['Recording changes', 'Substitution'],
    ]);
  });

  it('drops the file header, banner, section list, navigation and modeline', () => {
    const text = sections.flatMap((section) => section.blocks.map((block) => block.text)).join('\n');
    for (const gone of [
      'For Vim version',
      'VIM USER MANUAL',
      'Next chapter',
      'Previous chapter',
      'usr_toc',
      'vim:tw',
      '77.1',
    ]) {
      expect(text).not.toContain(gone);
    }
    expect(sections[0].blocks.map((block) => block.text)).toEqual([
      'This chapter shows how to record what you type and play it back.',
    ]);
  });

  it('reads links as their words and starts a paragraph at a line indented by spaces', () => {
    const [first, second] = sections[1].blocks;
    expect(first).toMatchObject({
      kind: 'paragraph',
      text: 'The "q{register}" command starts recording keystrokes into the register. Use @ to execute the register, see complex-repeat.',
      line: 20,
    });
    expect(second.text).toBe('A count before it repeats the playback that many times.');
  });

  it('reads a column layout as named rows, a wrapped description joined to its row', () => {
    const rows = sections[1].blocks.filter((block) => block.kind === 'table-row');
    expect(rows.map((row) => [row.name, row.text])).toEqual([
      ['qa', 'qa: Start recording a macro in register a.'],
      ['^', '^: Move to the beginning of the line.'],
      ['i#include "<Esc>', 'i#include "<Esc>: Insert the string #include " at the beginning of the line.'],
      ['q', 'q: Stop recording the macro.'],
    ]);
  });

  it('reads a column layout at the margin (a tab between the columns) as rows, prose after it as prose', () => {
    expect(sections[2].blocks.map((block) => [block.kind, block.text])).toEqual([
      ['table-row', 'x: delete character under the cursor'],
      ['table-row', 'dw: delete from cursor to next start of word'],
      ['paragraph', 'If you use "c" instead of "d" they become change commands.'],
      ['paragraph', 'The registers used for recording are the same ones you used for yank.'],
    ]);
  });

  it('reads the example after a line ending in ">" as code, and sample text ending in "~" too', () => {
    const blocks = sections[1].blocks;
    const announce = blocks.findIndex((block) => block.text.startsWith('To play it back'));
    expect(blocks[announce].text).toBe('To play it back three times, type:');
    expect(blocks[announce + 1]).toMatchObject({ kind: 'code', text: '3@a' });
    const sample = blocks.find((block) => block.text.startsWith('#include'));
    expect(sample).toMatchObject({ kind: 'code', text: '#include "stdio.h"\n#include "fcntl.h"' });
  });

  it('ends an example at a line starting with "<" and reads the rest of that line as text', () => {
    expect(sections[3].blocks.map((block) => [block.kind, block.text])).toEqual([
      ['paragraph', 'To change every occurrence on the line, add the g flag:'],
      ['code', ':%s/Professor/Teacher/g'],
      ['paragraph', 'The c flag asks before each change.'],
    ]);
  });

  it('is recognised by its modeline or its first line, and a .txt of it is read as help', () => {
    expect(isVimHelp(CHAPTER)).toBe(true);
    expect(isVimHelp('*foo.txt*\tFor Vim version 9.1.  Last change: 2025 May 01\n\nSome text.')).toBe(true);
    expect(isVimHelp('A plain FAQ.\n\nQ: What is vim?\nA: An editor.\n')).toBe(false);
    // "vim:" in prose is not a modeline saying ft=help.
    expect(isVimHelp('Tips\n\nPut vim: set ts=4 in a file to change its tab stops.\n')).toBe(false);
    const asText = readDocument({ format: 'text', text: CHAPTER });
    expect(asText.format).toBe('vimhelp');
    expect(asText.sections.map((section) => section.path)).toEqual(sections.map((section) => section.path));
    const plain = readDocument({ format: 'text', text: 'Intro\n\nNot a help file; no modeline here.\n' });
    expect(plain.format).toBe('text');
  });

  it('gives the model the prose and rows, not the examples, the tags or the bars', () => {
    const plain = plainTextOf(readDocument({ format: 'vimhelp', text: CHAPTER }));
    expect(plain).toContain('qa: Start recording a macro in register a.');
    expect(plain).not.toMatch(/\*recording\*|\|usr_|3@a|:%s/);
  });

  it('reads a reference-manual style file: "1. Heading  *tag*" after a separator, "----" subsections', () => {
    const reference = [
      '*options.txt*\tFor Vim version 9.0.  Last change: 2023 Mar 01',
      '',
      '\t\t  VIM REFERENCE MANUAL\t  by Bram Moolenaar',
      '',
      '',
      'Options\t\t\t\t\t\t\t\t*options*',
      '',
      '==============================================================================',
      '1. Setting options\t\t\t\t\t*set-option* *E764*',
      '',
      "'hlsearch' 'hls'\tboolean\t(default off)",
      '\t\t\tglobal',
      '\tWhen there is a previous search pattern, highlight all its matches.',
      '',
      '------------------------------------------------------------------------------',
      'Local options',
      '',
      'Some options are local to a window.',
      '',
      ' vim:tw=78:ts=8:noet:ft=help:norl:',
    ].join('\n');
    const read = readVimHelp(reference);
    expect(read.title).toBe('Options');
    expect(read.sections.map((section) => section.path)).toEqual([
      ['Options', '1. Setting options'],
      ['Options', '1. Setting options', 'Local options'],
    ]);
    const text = read.sections.flatMap((section) => section.blocks.map((block) => block.text)).join('\n');
    expect(text).toContain('highlight all its matches');
    expect(text).not.toContain('*set-option*');
  });
});

describe('POST /api/train with format vimhelp', () => {
  async function trainEndpoint() {
    const services = await redisServices();
    return { services, train: endpoint(trainHandlers(() => services)) };
  }

  it('stores the text with its format and learns its sections as help, not as raw markup', async () => {
    const { services, train } = await trainEndpoint();
    const response = await train.fetch(
      postJson('http://127.0.0.1/api/train', { text: CHAPTER, format: 'vimhelp', name: 'usr_77.txt' }),
    );
    expect(response.status).toBe(200);
    const [chunk] = await services.store.lrange(trainingKeys.chunks, 0, -1);
    expect(decodeChunk(chunk!)).toMatchObject({ format: 'vimhelp', name: 'usr_77.txt', text: CHAPTER });
    const texts = (await services.model.knowledge()).passages.allTexts().join('\n');
    expect(texts).toContain('qa: Start recording a macro in register a.');
    expect(texts).not.toMatch(/\*macro\*|\|usr_toc\.txt\||Next chapter|vim:tw/);
  });

  it('reads a .txt upload of Vim help as help by its modeline', async () => {
    const { services, train } = await trainEndpoint();
    const form = new FormData();
    form.set('file', new Blob([CHAPTER], { type: 'text/plain' }), 'usr_77.txt');
    const response = await train.fetch(
      new Request('http://127.0.0.1/api/train', { method: 'POST', body: form }),
    );
    expect(response.status).toBe(200);
    const texts = (await services.model.knowledge()).passages.allTexts().join('\n');
    expect(texts).toContain('Use @ to execute the register, see complex-repeat.');
    expect(texts).not.toContain('Previous chapter');
  });

  it('still rejects an unknown format with 400, storing nothing', async () => {
    const { services, train } = await trainEndpoint();
    const response = await train.fetch(
      postJson('http://127.0.0.1/api/train', { text: CHAPTER, format: 'vim-help' }),
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('validation_failed');
    expect(JSON.stringify(body)).toContain('vimhelp');
    expect(await services.store.llen(trainingKeys.chunks)).toBe(0);
  });
});
