import { describe, expect, it } from 'vitest';
import { readDocument } from '../../lib/documents/index.js';
import { PassageIndex, queryTermsOf } from '../../lib/retrieval/index.js';

const VERSES_A = [
  'In the beginning God created the heaven and the earth.',
  'And the earth was without form, and void; and darkness was upon the face of the deep.',
  'And God said, Let there be light: and there was light.',
].join('\n');
const VERSES_B = [
  'And God saw the light, that it was good: and God divided the light from the darkness.',
  'And God called the light Day, and the darkness he called Night.',
].join('\n');
const MARKDOWN = `# Lamps

A lamp gives light in the darkness.

## Options

- \`--bright\`: more light.
- \`--dim\`: less light, for the night.
`;

function addAll(index: PassageIndex): void {
  index.addChunk(1, VERSES_A);
  index.addChunk(2, VERSES_B);
  index.addDocument(3, readDocument({ format: 'markdown', name: 'lamps.md', text: MARKDOWN }));
  index.addChunk(4, 'The light shineth in darkness.');
}

const QUERIES = ['light darkness', 'God created the earth', 'night', 'bright light option', 'lamps'];

describe('PassageIndex.search', () => {
  it('finds the same hits when passages arrive between searches as when all were there first', () => {
    const whole = new PassageIndex();
    addAll(whole);
    const growing = new PassageIndex();
    const steps = [
      () => growing.addChunk(1, VERSES_A),
      () => growing.addChunk(2, VERSES_B),
      () => growing.addDocument(3, readDocument({ format: 'markdown', name: 'lamps.md', text: MARKDOWN })),
      () => growing.addChunk(4, 'The light shineth in darkness.'),
    ];
    for (const step of steps) {
      step();
      // Searching between additions keeps what it worked out about neighbouring lines; it must not go stale.
      for (const query of QUERIES) growing.search(queryTermsOf(query), 5);
    }
    for (const query of QUERIES) {
      for (const limit of [1, 3, 20]) {
        expect(growing.search(queryTermsOf(query), limit)).toEqual(whole.search(queryTermsOf(query), limit));
      }
    }
  });

  it('sees a line added to the same chunk after a search as the neighbour of the line before', () => {
    const build = (searchBetween: boolean) => {
      const index = new PassageIndex();
      index.addChunk(1, 'The lamp was lit at evening.');
      if (searchBetween) index.search(queryTermsOf('lamp oil'), 1);
      index.addPassage({ chunk: 1, line: 2, text: 'They brought oil for it.', kind: 'line' }, ['oil']);
      return index;
    };
    const searched = build(true).search(queryTermsOf('lamp oil'), 2);
    expect(searched).toEqual(build(false).search(queryTermsOf('lamp oil'), 2));
    const lamp = searched.find((hit) => hit.id === 0)!;
    expect(lamp.matchedNearby).toEqual([1]);
    expect(lamp.score).toBeGreaterThan(lamp.ownScore);
  });

  it('counts a neighbouring line of the same chunk, never a line of another chunk', () => {
    const index = new PassageIndex();
    addAll(index);
    const [hit] = index.search(queryTermsOf('void'), 1);
    expect(index.text(hit.id)).toContain('void');
    // "the earth" is matched by the line before (same chunk): it counts as nearby.
    const [nearby] = index.search(queryTermsOf('void beginning'), 1);
    expect(nearby.matchedNearby.length + nearby.matched.length).toBe(2);
    // The first line of chunk 2 has no neighbour in chunk 1.
    const day = index.search(queryTermsOf('Day'), 1)[0];
    const alone = index.search(queryTermsOf('Day void'), 5).find((h) => h.id === day.id)!;
    expect(alone.matchedNearby).toEqual([]);
  });

  it('gives a list item what the other blocks of its section match', () => {
    const index = new PassageIndex();
    addAll(index);
    const hit = index.search(queryTermsOf('dim night lamp'), 1)[0];
    expect(index.text(hit.id)).toContain('less light');
    expect(hit.matched.length + hit.matchedNearby.length + hit.matchedHeading.length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('searches a letter with "#" or "++" as a name of its own, beside the letter', () => {
    expect(queryTermsOf('What is a C# delegate?').map((term) => term.term)).toEqual(['c', 'c#', 'deleg']);
    expect(queryTermsOf('Is C++ supported?').find((term) => term.term === 'c++')?.name).toBe(true);
    const index = new PassageIndex();
    index.addChunk(1, 'Pointers in C are addresses of memory.');
    index.addChunk(2, 'A C++ reference is another name for an object.');
    expect(index.idf('c#')).toBe(index.idf(''));
    const cpp = index.search(queryTermsOf('What is a C++ reference?'), 2);
    expect(index.text(cpp[0]!.id)).toContain('C++ reference');
    // The letter alone still finds both.
    expect(index.search(queryTermsOf('C'), 2)).toHaveLength(2);
  });
});
