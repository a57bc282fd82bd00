import { describe, expect, it } from 'vitest';
import type { Source } from '../../lib/pipeline/index.js';
import { sourceDocument, sourceTitle } from '../../lib/ui-chat/index.js';

const passage = (ref: Record<string, unknown>, extra: Record<string, unknown> = {}): Source =>
  ({ text: 'The light shines.', score: 3.5, ref, ...extra }) as Source;

describe('the title of a source-document', () => {
  it('names the chunk and line of trained text', () => {
    expect(sourceTitle(passage({ chunk: 3, line: 7 }))).toBe('chunk 3, line 7');
  });

  it('names an article by its title', () => {
    expect(
      sourceTitle(passage({ title: 'Alan Turing', url: 'https://en.wikipedia.org/wiki/Alan_Turing' })),
    ).toBe('Alan Turing');
  });

  it('names the document and its section when the source knows them, on the source or its ref', () => {
    expect(sourceTitle(passage({ chunk: 2, line: 1, file: 'guide.md', section: 'Training' }))).toBe(
      'guide.md — Training',
    );
    expect(
      sourceTitle(passage({ chunk: 2, line: 1 }, { file: 'guide.md', section: ['Usage', 'Modes'] })),
    ).toBe('guide.md — Usage › Modes');
    expect(sourceTitle(passage({ chunk: 2, line: 1 }, { section: 'Modes' }))).toBe('Modes');
    expect(
      sourceTitle(passage({ chunk: 2, line: 1 }, { file: 'manual.pdf', section: 'tar > Options', page: 4 })),
    ).toBe('manual.pdf — tar > Options, page 4');
    expect(sourceTitle(passage({ chunk: 2, line: 1 }, { file: '', section: [] }))).toBe('chunk 2, line 1');
  });

  it('carries the passage, its score and where it is under providerMetadata.ngram, and the file as filename', () => {
    expect(sourceDocument(passage({ chunk: 1, line: 4 }, { file: 'notes.txt' }), 2)).toEqual({
      sourceId: 'source-2',
      mediaType: 'text/plain',
      title: 'notes.txt',
      filename: 'notes.txt',
      providerMetadata: {
        ngram: { n: 2, text: 'The light shines.', score: 3.5, ref: { chunk: 1, line: 4 }, file: 'notes.txt' },
      },
    });
  });
});
