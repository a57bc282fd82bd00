import { describe, expect, it } from 'vitest';
import { countTokens, limitStream, limitTokens } from '../../lib/text/index.js';

const REPLY = 'Naomi. She came from the country of Moab with Ruth, her daughter in law [1].';

describe('countTokens', () => {
  it('counts words and each punctuation mark, as the model tokenises', () => {
    expect(countTokens('Naomi.')).toBe(2);
    expect(countTokens("Ruth's mother in law [1]")).toBe(7);
    expect(countTokens('')).toBe(0);
  });
});

describe('limitTokens', () => {
  it('returns a reply that fits unchanged and says nothing was cut', () => {
    expect(limitTokens(REPLY, 80)).toEqual({ text: REPLY, cut: false });
    expect(limitTokens(REPLY, countTokens(REPLY))).toEqual({ text: REPLY, cut: false });
  });

  it.each([1, 2, 3, 5, 8, 13, 20])('never returns more than %i tokens, and marks the cut', (max) => {
    const limited = limitTokens(REPLY, max);
    expect(countTokens(limited.text)).toBeLessThanOrEqual(max);
    expect(limited.cut).toBe(countTokens(REPLY) > max);
  });

  it('keeps the short answer first: maxTokens 3 still says "Naomi."', () => {
    expect(limitTokens(REPLY, 3).text).toBe('Naomi. …');
    expect(limitTokens(REPLY, 1).text).toBe('Naomi');
    expect(limitTokens(REPLY, 2).text).toBe('Naomi…');
  });

  it('cuts at a word boundary with "…" and drops a dangling comma', () => {
    expect(limitTokens(REPLY, 5).text).toBe('Naomi. She came…');
    expect(limitTokens(REPLY, 13).text).toBe('Naomi. She came from the country of Moab with Ruth…');
  });

  it('never cuts inside a [n] citation', () => {
    const text = 'The light was good [1] and God divided the light from the darkness [2].';
    for (let max = 1; max <= countTokens(text); max++) {
      const limited = limitTokens(text, max).text;
      expect(limited).not.toMatch(/\[\d*…|\[\d+…|\[…/);
      expect(limited.match(/\[/g)?.length ?? 0).toBe(limited.match(/\]/g)?.length ?? 0);
    }
  });

  it('closes a code fence it cuts through, and never stops on the fence line alone', () => {
    const text = 'Install it:\n\n```bash\nnpm install semver\nnpm test\n```\n\nThen run it.';
    for (let max = 1; max < countTokens(text); max++) {
      const limited = limitTokens(text, max);
      expect(countTokens(limited.text)).toBeLessThanOrEqual(max);
      const fences = limited.text.match(/^```/gm)?.length ?? 0;
      expect(fences % 2).toBe(0);
      expect(limited.text).not.toMatch(/```bash\n```/);
    }
    expect(limitTokens(text, 14).text).toBe('Install it:\n\n```bash\nnpm install semver\n```\n…');
    expect(limitTokens(text, 13).text).toBe('Install it:\n\n```bash\nnpm install\n```\n…');
  });

  it('ends an inline code span it cuts through', () => {
    const limited = limitTokens('Use `npm install semver --save` to add it.', 6);
    expect(limited.text).toBe('Use `npm install`…');
    expect(countTokens(limited.text)).toBeLessThanOrEqual(6);
  });
});

describe('limitStream', () => {
  function streamed(text: string, max: number, pieceSize: number) {
    const pieces: string[] = [];
    const stream = limitStream(max, (piece: string) => pieces.push(piece));
    for (let i = 0; i < text.length; i += pieceSize) stream.sink(text.slice(i, i + pieceSize));
    const sentBeforeEnd = pieces.join('');
    const limited = stream.finish(text);
    return { sentBeforeEnd, sent: pieces.join(''), limited };
  }

  it.each([1, 3, 5, 20, 200])(
    'sends pieces that add up to exactly the limited reply (maxTokens %i)',
    (max) => {
      for (const size of [1, 3, 7]) {
        const { sentBeforeEnd, sent, limited } = streamed(REPLY, max, size);
        expect(sent).toBe(limited.text);
        expect(limited).toEqual(limitTokens(REPLY, max));
        expect(countTokens(sentBeforeEnd)).toBeLessThanOrEqual(max);
      }
    },
  );

  it('keeps the sink signal of the stream it wraps', () => {
    const signal = new AbortController().signal;
    const stream = limitStream(
      5,
      Object.assign((_: string) => {}, { signal }),
    );
    expect(stream.sink.signal).toBe(signal);
  });
});
