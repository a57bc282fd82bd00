import { describe, expect, it } from 'vitest';
import {
  formatOfFileName,
  splitForTraining,
  splitMarkdownForTraining,
  trainInParts,
} from '../../public/training.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('splitForTraining (a file cut into parts under the size cap)', () => {
  it('keeps a small text whole, with its line ends as \\n', () => {
    expect(splitForTraining('One line.\r\nTwo lines.\r\n\r\nA paragraph.')).toEqual([
      'One line.\nTwo lines.\n\nA paragraph.',
    ]);
  });

  it('cuts at paragraph boundaries, each part under the cap, nothing lost', () => {
    const paragraphs = Array.from(
      { length: 40 },
      (_, index) => `Paragraph ${index} says something.\nOn two lines.`,
    );
    const parts = splitForTraining(paragraphs.join('\n\n'), 200);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(200);
    expect(parts.join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('cuts a paragraph larger than the cap at line ends', () => {
    const lines = Array.from({ length: 30 }, (_, index) => `Line ${index} of one long verse block.`);
    const parts = splitForTraining(lines.join('\n'), 120);
    for (const part of parts) expect(bytes(part)).toBeLessThanOrEqual(120);
    expect(parts.join('\n')).toBe(lines.join('\n'));
  });

  it('cuts a line larger than the cap at a space, never inside a multi-byte character', () => {
    const line = 'déjà vu — ünïcödé wörds '.repeat(40).trim();
    const parts = splitForTraining(line, 64);
    for (const part of parts) {
      expect(bytes(part)).toBeLessThanOrEqual(64);
      expect(part).not.toContain('\uFFFD');
    }
    expect(parts.join('')).toBe(line);
    expect(parts.slice(0, -1).every((part) => part.endsWith(' '))).toBe(true);
  });

  it('leaves out blank parts and returns nothing for whitespace', () => {
    expect(splitForTraining('\n\n  \n\t\n')).toEqual([]);
  });
});

/** A `send` that answers from a script: a number is a 429 with that Retry-After, an object a result. */
function scripted(answers: Array<number | { tokens: number; vocabSize: number } | Error>) {
  const sent: Array<string | Blob> = [];
  const send = async (part: string | Blob) => {
    sent.push(part);
    const answer = answers.shift();
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'number')
      throw Object.assign(new Error('rate limited'), { status: 429, retryAfter: answer });
    if (!answer) throw new Error('no more answers');
    return answer;
  };
  return { send, sent };
}

describe('trainInParts (parts sent in order, honouring Retry-After)', () => {
  it('sends every part and sums the tokens, reporting progress by bytes', async () => {
    const { send, sent } = scripted([
      { tokens: 5, vocabSize: 4 },
      { tokens: 7, vocabSize: 9 },
    ]);
    const progress: Array<{ phase: string; bytesDone: number }> = [];
    const result = await trainInParts(['aaaa', 'bb'], { send, onProgress: (event) => progress.push(event) });
    expect(result).toEqual({ parts: 2, tokens: 12, vocabSize: 9, retries: 0 });
    expect(sent).toEqual(['aaaa', 'bb']);
    expect(progress.map((event) => [event.phase, event.bytesDone])).toEqual([
      ['sending', 0],
      ['sending', 4],
      ['done', 6],
    ]);
  });

  it('waits as long as a 429 asks and sends the same part again', async () => {
    const { send, sent } = scripted([{ tokens: 1, vocabSize: 1 }, 3, 0, { tokens: 2, vocabSize: 2 }]);
    const waits: number[] = [];
    const result = await trainInParts(['one', 'two'], {
      send,
      wait: async (seconds: number) => {
        waits.push(seconds);
      },
    });
    expect(sent).toEqual(['one', 'two', 'two', 'two']);
    expect(waits).toEqual([3, 1]);
    expect(result).toMatchObject({ tokens: 3, retries: 2 });
  });

  it('gives up after too many 429s in a row, and stops at any other failure', async () => {
    const wait = async () => {};
    await expect(
      trainInParts(['x'], { send: scripted([1, 1, 1]).send, wait, maxRetries: 2 }),
    ).rejects.toMatchObject({
      status: 429,
    });
    const failing = scripted([{ tokens: 1, vocabSize: 1 }, new Error('boom')]);
    await expect(trainInParts(['a', 'b', 'c'], { send: failing.send, wait })).rejects.toThrow('boom');
    expect(failing.sent).toEqual(['a', 'b']);
  });
});

describe('documents dropped on the page', () => {
  it('knows the format of a file from its name', () => {
    expect(['a.md', 'B.HTML', 'c.htm', 'd.pdf', 'e.txt', 'f.csv'].map(formatOfFileName)).toEqual([
      'markdown',
      'html',
      'html',
      'pdf',
      'text',
      'text',
    ]);
  });

  it('cuts Markdown before headings, never inside a fenced block', () => {
    const text = Array.from(
      { length: 5 },
      (_, n) => `## Part ${n}\n\nWords.\n\n\`\`\`\n# code ${n}\n\`\`\``,
    ).join('\n\n');
    const parts = splitMarkdownForTraining(text, 80);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.startsWith('## Part')).toBe(true);
      expect(bytes(part)).toBeLessThanOrEqual(80);
    }
  });

  it('sends a whole file as one part, counted by its size', async () => {
    const file = new Blob(['%PDF-1.4 ...']);
    const sent: unknown[] = [];
    const progress: { bytesTotal: number }[] = [];
    await trainInParts([file], {
      send: async (part) => {
        sent.push(part);
        return { tokens: 1, vocabSize: 1 };
      },
      onProgress: (event) => progress.push(event),
    });
    expect(sent).toEqual([file]);
    expect(progress[0]!.bytesTotal).toBe(file.size);
  });
});
