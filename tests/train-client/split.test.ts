import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PartPacker, partsOf, splitForTraining, utf8Bytes } from '../../lib/train-client/index.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('splitting a text into training parts', () => {
  const paragraphs = Array.from(
    { length: 40 },
    (_, i) => `Paragraph ${i} line one.\nParagraph ${i} line two.`,
  );
  const text = paragraphs.join('\n\n');

  it('keeps a text under the cap whole', () => {
    expect(splitForTraining(text, 1024 * 1024)).toEqual([text]);
  });

  it('cuts at blank lines, every part under the cap, nothing lost or reordered', () => {
    const parts = splitForTraining(text, 200);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(utf8Bytes(part)).toBeLessThanOrEqual(200);
    // The service puts the document together with nothing between the parts: the blank line
    // where a part ends goes with it, so no paragraph runs into the next.
    expect(parts.join('')).toBe(text);
    expect(parts.flatMap((part) => part.split('\n\n')).filter(Boolean)).toEqual(paragraphs);
  });

  it('cuts a paragraph larger than the cap at line ends', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line number ${i} of one long paragraph`);
    const parts = splitForTraining(lines.join('\n'), 120);
    for (const part of parts) expect(utf8Bytes(part)).toBeLessThanOrEqual(120);
    expect(parts.join('')).toBe(lines.join('\n'));
  });

  it('cuts a line longer than the cap at spaces, then a word between characters, counting UTF-8 bytes', () => {
    const line = `${'héllo wörld '.repeat(40)}${'ü'.repeat(50)}`;
    const parts = splitForTraining(line, 32);
    for (const part of parts) expect(utf8Bytes(part)).toBeLessThanOrEqual(32);
    expect(parts.join('')).not.toContain('\uFFFD');
    // Put together as the service does, every word is whole and none runs into the next.
    expect(words(parts.join(''))).toEqual(words(line));
  });

  it('drops whitespace-only parts and treats CRLF blank lines as paragraph breaks', () => {
    expect(splitForTraining('\n\n  \n\t\n', 100)).toEqual([]);
    expect(splitForTraining('one\r\n\r\ntwo', 100)).toEqual(['one\n\ntwo']);
    expect(splitForTraining(`${'a'.repeat(10)}\r\n \r\n${'b'.repeat(10)}`, 16)).toEqual([
      `${'a'.repeat(10)}\n\n`,
      'b'.repeat(10),
    ]);
  });

  it('gives the same parts whether the text arrives whole or in small pieces', async () => {
    const chunks = text.match(/[\s\S]{1,7}/g)!;
    const streamed: string[] = [];
    for await (const part of partsOf(Readable.from(chunks), 200)) streamed.push(part);
    expect(streamed).toEqual(splitForTraining(text, 200));
  });

  it('holds a paragraph that never ends to about one part in memory', () => {
    const packer = new PartPacker(100);
    let parts: string[] = [];
    for (let i = 0; i < 200; i++) parts = parts.concat(packer.push(`line ${i} without a blank line\n`));
    expect(parts.length).toBeGreaterThan(20);
    expect((packer as unknown as { pending: string }).pending.length).toBeLessThan(200);
    parts = parts.concat(packer.end());
    expect(parts.join('\n').split('\n').filter(Boolean)).toHaveLength(200);
  });
});
