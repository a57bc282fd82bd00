import { describe, expect, it } from 'vitest';
import { searchQueryFrom } from '../../lib/wiki/index.js';

describe('searchQueryFrom', () => {
  it.each([
    ['What is photosynthesis?', 'photosynthesis'],
    ['Who was Alan Turing?', 'Alan Turing'],
    ['When was Alan Turing born?', 'Alan Turing born'],
    ['Can you please tell me about AC/DC?', 'AC/DC'],
    ['What’s the capital of France?', 'capital France'],
    ['tell me about the U.S. Constitution', 'U.S. Constitution'],
    ['"Photosynthesis" — explain it, please!', 'Photosynthesis'],
  ])('keeps the substantive words of %j', (message, query) => {
    expect(searchQueryFrom(message)).toBe(query);
  });

  it('falls back to the message itself when nothing substantive is left', () => {
    expect(searchQueryFrom('  who is   it? ')).toBe('who is it?');
  });

  it('keeps the query to about 100 characters, cut at a word', () => {
    const message = `What about ${'encyclopedia '.repeat(30)}`;
    const query = searchQueryFrom(message);
    expect(query.length).toBeLessThanOrEqual(100);
    expect(query.endsWith('encyclopedia')).toBe(true);
  });
});
