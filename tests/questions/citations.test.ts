import { describe, expect, it } from 'vitest';
import { citationOf, withCitation } from '../../lib/citations/index.js';
import type { Source } from '../../lib/pipeline/index.js';

describe('citationOf', () => {
  it('links a Markdown section by its heading slug as GitHub makes it', () => {
    expect(
      citationOf({
        title: 'guide.md',
        path: ['Guide', 'Rate limits & quotas (v2)'],
        url: 'https://docs.example.org/guide',
      }),
    ).toEqual({
      title: 'guide.md',
      section: 'Guide › Rate limits & quotas (v2)',
      url: 'https://docs.example.org/guide#rate-limits--quotas-v2',
    });
  });

  it('links a PDF page as #page=N, replacing a fragment the url had', () => {
    expect(
      citationOf({
        title: 'manual.pdf',
        path: ['Setup'],
        url: 'https://example.org/manual.pdf#top',
        page: 4,
      }),
    ).toEqual({
      title: 'manual.pdf',
      section: 'Setup',
      url: 'https://example.org/manual.pdf#page=4',
      page: 4,
    });
  });

  it("uses an HTML section's id when known, and no guessed fragment without one", () => {
    const base = {
      title: 'help.html',
      path: ['Help', 'Refunds'],
      url: 'https://example.org/help.html',
      format: 'html',
    };
    expect(citationOf({ ...base, anchor: 'refunds-policy' }).url).toBe(
      'https://example.org/help.html#refunds-policy',
    );
    expect(citationOf(base).url).toBe('https://example.org/help.html');
  });

  it('gives no url without one, or for a url that is not http(s)', () => {
    expect(citationOf({ title: 'notes.md', path: ['Notes'] })).toEqual({
      title: 'notes.md',
      section: 'Notes',
    });
    expect(citationOf({ title: 'x.md', path: ['A'], url: 'javascript:alert(1)' }).url).toBeUndefined();
    expect(citationOf({ title: 'x.md', path: ['A'], url: 'not a url' }).url).toBeUndefined();
  });
});

describe('withCitation', () => {
  const passage: Source = {
    text: 'Opens at nine.',
    score: 2,
    ref: { chunk: 1, line: 3 },
    section: 'Museum > Opening hours',
    file: 'museum.md',
  };

  it('adds the title and, from the documents issue, the url; keeps the section as the index writes it', () => {
    expect(withCitation(passage)).toMatchObject({ title: 'museum.md', section: 'Museum > Opening hours' });
    expect(withCitation(passage)).not.toHaveProperty('url');
    const withUrl = { ...passage, url: 'https://docs.example.org/museum', documentId: 'museum.md' };
    expect(withCitation(withUrl).url).toBe('https://docs.example.org/museum#opening-hours');
  });

  it('leaves an article its title and url, and an image line as it is', () => {
    const article: Source = {
      text: 'x',
      score: 1,
      ref: { title: 'Lighthouse', url: 'https://en.wikipedia.org/wiki/Lighthouse' },
    };
    expect(withCitation(article)).toMatchObject({
      title: 'Lighthouse',
      url: 'https://en.wikipedia.org/wiki/Lighthouse',
    });
    const image: Source = { text: 'x', score: 1, ref: { image: 'a'.repeat(64), line: 1 } };
    expect(withCitation(image)).toEqual(image);
  });
});
