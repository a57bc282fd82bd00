import { describe, expect, it } from 'vitest';
import {
  normalizeStatement,
  StatementFinder,
  similarityFrom,
  statementSimilarity,
} from '../../lib/dialogue/match.js';
import { PERSONA } from '../../lib/dialogue/persona.js';

/** The similarity as first written: the full edit-distance table, and the word overlap. */
function referenceSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a === '' || b === '') return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  const ratio = 1 - previous[b.length] / Math.max(a.length, b.length);
  const wordsA = a.split(' ');
  const wordsB = new Set(b.split(' '));
  const shared = wordsA.filter((word) => wordsB.has(word)).length;
  const dice = (2 * shared) / (wordsA.length + wordsB.size);
  return Math.max(ratio, wordsA.length > 1 && wordsB.size > 1 ? dice : 0);
}

/** A seeded source of messages: persona statements with typos, words dropped, added or swapped. */
function messages(count: number): string[] {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const statements = PERSONA.flatMap((intent) => intent.statements);
  const words = 'tell me about wisdom hello thanks the a good night bye who are you what can do'.split(' ');
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = statements[Math.floor(random() * statements.length)];
    const edits = Math.floor(random() * 4);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(random() * (text.length + 1));
      const kind = random();
      if (kind < 0.3) text = text.slice(0, at) + text.slice(at + 1);
      else if (kind < 0.6)
        text = `${text.slice(0, at)}${'aeiourst'[Math.floor(random() * 8)]}${text.slice(at)}`;
      else if (kind < 0.8) text = `${text} ${words[Math.floor(random() * words.length)]}`;
      else text = `${words[Math.floor(random() * words.length)]} ${text}`;
    }
    out.push(normalizeStatement(text));
  }
  return out;
}

describe('statement similarity', () => {
  const statements = PERSONA.flatMap((intent) => intent.statements);
  const cases = messages(150);

  it('is the full edit-distance ratio or word overlap, whichever is higher', () => {
    for (const message of cases.slice(0, 100))
      for (const known of statements)
        expect(statementSimilarity(message, known)).toBe(referenceSimilarity(message, known));
  });

  it('gives the exact similarity whenever it reaches the floor, and a value below the floor otherwise', () => {
    for (const floor of [0.8, 0.86, 0.9, 0.95]) {
      for (const message of cases) {
        for (const known of statements) {
          const exact = referenceSimilarity(message, known);
          const bounded = similarityFrom(message, known, floor);
          if (exact >= floor) expect(bounded).toBe(exact);
          else expect(bounded).toBeLessThan(floor);
        }
      }
    }
  });

  it('handles empty and identical statements', () => {
    expect(similarityFrom('', 'hello', 0.86)).toBe(0);
    expect(similarityFrom('hello', 'hello', 0.86)).toBe(1);
    expect(similarityFrom('helo', 'hello', 0.7)).toBe(0.8);
    // Repeated words count each time in the overlap, as they always did.
    for (const [a, b] of [
      ['hi hi hi', 'hi there'],
      ['thanks thanks', 'thanks a lot'],
      ['good good good night', 'good night'],
    ])
      for (const floor of [0.8, 0.86]) {
        const exact = referenceSimilarity(a, b);
        if (exact >= floor) expect(similarityFrom(a, b, floor)).toBe(exact);
        else expect(similarityFrom(a, b, floor)).toBeLessThan(floor);
      }
  });

  it('leaves out of its candidates only statements that cannot reach the floor', () => {
    const finder = new StatementFinder(statements);
    for (const floor of [0.8, 0.86]) {
      for (const message of cases) {
        const candidates = new Set(finder.candidates(message, floor));
        statements.forEach((known, at) => {
          if (!candidates.has(at)) expect(referenceSimilarity(message, known)).toBeLessThan(floor);
        });
        const ordered = [...candidates];
        expect(ordered).toEqual([...ordered].sort((a, b) => a - b));
      }
    }
  });
});
