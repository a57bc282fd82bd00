import { describe, expect, it } from 'vitest';
import { segmentText, splitSentences } from '../../lib/text/index.js';

describe('segmentText', () => {
  it('keeps text written one verse or sentence a line as one unit a line', () => {
    const units = segmentText(
      'In the beginning was the word.\nAnd the word was with God;\nand the word was God.',
    );
    expect(units.map((unit) => [unit.line, unit.layout])).toEqual([
      [1, 'line'],
      [2, 'line'],
      [3, 'line'],
    ]);
  });

  it('joins a hard-wrapped paragraph into one unit and splits it into its sentences', () => {
    const text = [
      'The service answers questions from the text it was',
      'taught. It cites the passages it used, and it says',
      'so when it does not know.',
      '',
      'A second paragraph starts here and runs on to the',
      'next line.',
    ].join('\n');
    const units = segmentText(text);
    expect(units).toHaveLength(2);
    expect(units[0]).toMatchObject({
      line: 1,
      layout: 'paragraph',
      text: 'The service answers questions from the text it was taught. It cites the passages it used, and it says so when it does not know.',
      sentences: [
        'The service answers questions from the text it was taught.',
        'It cites the passages it used, and it says so when it does not know.',
      ],
    });
    expect(units[1]).toMatchObject({ line: 5, layout: 'paragraph' });
  });

  it('mends words broken at a line end, whatever the length of the lines around them', () => {
    const [unit] = segmentText(
      'the fox jum-\nped over the dog and went on a-\nb and on until the end\nof the line was near and so on',
    );
    expect(unit.text).toBe(
      'the fox jumped over the dog and went on ab and on until the end of the line was near and so on',
    );
  });

  it('joins a paragraph of tens of thousands of lines into one unit, every line kept', () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `and the word${i} goes on`);
    const units = segmentText(lines.join('\n'));
    expect(units).toHaveLength(1);
    expect(units[0].text).toBe(lines.join(' '));
  });

  it('keeps list items and headings of wrapped prose as units of their own', () => {
    const units = segmentText(
      'Some prose that wraps over\nthe next line here.\n- a list item\n- another item',
    );
    expect(units.map((unit) => unit.text)).toEqual([
      'Some prose that wraps over the next line here.',
      '- a list item',
      '- another item',
    ]);
  });

  it('keeps a number wrapped to the start of a line mid-sentence in its sentence, not as a list item', () => {
    const units = segmentText(
      'If a command is not found, the child process returns a status of\n127. If it is found but is not\nexecutable, the status is 126. Steps:\n1. install it\n2. run it',
    );
    expect(units.map((unit) => unit.text)).toEqual([
      'If a command is not found, the child process returns a status of 127. If it is found but is not executable, the status is 126. Steps:',
      '1. install it',
      '2. run it',
    ]);
  });
});

describe('splitSentences', () => {
  it('splits at sentence ends but not after abbreviations or initials', () => {
    expect(
      splitSentences('Dr. Smith met J. R. Jones. They talked, e.g. about rain! Did it rain? Yes.'),
    ).toEqual(['Dr. Smith met J. R. Jones.', 'They talked, e.g. about rain!', 'Did it rain?', 'Yes.']);
  });

  it('ends a sentence after a key written with a hyphen or plus, which is no initial', () => {
    expect(splitSentences('It stops cleanly on Ctrl-C. On a laptop it needs no Redis.')).toEqual([
      'It stops cleanly on Ctrl-C.',
      'On a laptop it needs no Redis.',
    ]);
    expect(splitSentences('Press Shift+F. Then type a name.')).toEqual([
      'Press Shift+F.',
      'Then type a name.',
    ]);
  });

  it('ends a sentence before a Markdown link, whatever the case of its text', () => {
    expect(
      splitSentences('It cannot be enabled at runtime. [quiet-log](https://example.com/q) is used for this.'),
    ).toEqual(['It cannot be enabled at runtime.', '[quiet-log](https://example.com/q) is used for this.']);
    // Brackets that open no link are no sentence start ("[count]" in a manual's syntax).
    expect(splitSentences('Deletes lines. [count] times over.')).toEqual([
      'Deletes lines. [count] times over.',
    ]);
  });
});
