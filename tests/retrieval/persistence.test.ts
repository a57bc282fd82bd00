import { describe, expect, it } from 'vitest';
import { readDocument } from '../../lib/documents/index.js';
import { ByteWriter } from '../../lib/lm/index.js';
import { deserializePassageIndex, PassageIndex, serializePassageIndex } from '../../lib/retrieval/index.js';
import { termsOf } from '../../lib/retrieval/terms.js';

const MARKDOWN = `# Widgets

Widgets are **small** parts. Café prices: 3 €.

## Options

- \`--fast\`: runs fast.
- \`--slow\`: runs slow.

\`\`\`sh
widget --fast
\`\`\`
`;

function sample(): PassageIndex {
  const index = new PassageIndex();
  index.addDocument(1, readDocument({ format: 'markdown', name: 'widgets.md', text: MARKDOWN }));
  index.addChunk(
    2,
    'In the beginning God created the heaven and the earth.\nAnd the earth was without form.',
  );
  return index;
}

/** Everything a reply reads of an index, passage by passage. */
function contents(index: PassageIndex) {
  return {
    passages: Array.from({ length: index.size }, (_, id) => ({
      ...index.passage(id),
      section: index.section(id),
      display: index.display(id),
    })),
    sectionStarts: index.sectionStarts,
    sectionSizes: index.sectionSizes,
    search: index.search(
      termsOf('fast widget earth form').map((term) => ({ term, word: term, weight: 1, name: false })),
      5,
    ),
  };
}

describe('passage index persistence', () => {
  it('round-trips passages, sections, extras and search results, non-ASCII text included', () => {
    const index = sample();
    const loaded = deserializePassageIndex(serializePassageIndex(index));
    expect(loaded.size).toBe(index.size);
    expect(contents(loaded)).toEqual(contents(index));
    expect(loaded.allTexts().join('\n')).toContain('Café prices: 3 €.');
    expect(loaded.names.size).toBeGreaterThan(0);
    expect(loaded.langs.get([...index.langs.keys()][0])).toBe('sh');
  });

  it('keeps growing after a load, as a cold instance does when it replays the tail', () => {
    const index = sample();
    const loaded = deserializePassageIndex(serializePassageIndex(index));
    for (const other of [index, loaded])
      other.addChunk(3, 'Widgets ship fast from the earth.\nA second line.');
    expect(contents(loaded)).toEqual(contents(index));
    expect(serializePassageIndex(loaded)).toEqual(serializePassageIndex(index));
  });

  it('finds the same after its posting lists are packed, and goes on growing after', () => {
    const index = sample();
    const packed = sample();
    packed.pack();
    expect(contents(packed)).toEqual(contents(index));
    for (const other of [index, packed])
      other.addChunk(3, 'Widgets ship fast from the earth.\nNew words arrive.');
    expect(contents(packed)).toEqual(contents(index));
    expect(serializePassageIndex(packed)).toEqual(serializePassageIndex(index));
  });

  it('reads version 3, passage after passage, as its writer wrote it', () => {
    const index = sample();
    const out = new ByteWriter();
    out.uint(3);
    out.uint(index.sections.length);
    index.sections.forEach((section, id) => {
      out.uint(index.sectionSizes[id]);
      out.uint(section.path.length);
      for (const heading of section.path) out.string(heading);
      out.string(section.file ?? '');
      out.uint(section.markdown ? 1 : 0);
      out.uint(section.page ?? 0);
    });
    const kinds = ['line', 'paragraph', 'list-item', 'code', 'table-row', 'quote'];
    for (let id = 0; id < index.size; id++) {
      out.uint(index.chunkOf(id));
      out.uint(index.lineOf(id));
      out.uint(kinds.indexOf(index.kindOf(id)));
      out.uint(index.columns.lengths.get(id));
      out.string(index.text(id));
      const markdown = index.markdowns.get(id);
      const name = index.names.get(id);
      const lang = index.langs.get(id);
      out.uint(
        (markdown !== undefined ? 1 : 0) | (name !== undefined ? 2 : 0) | (lang !== undefined ? 4 : 0),
      );
      if (markdown !== undefined) out.string(markdown);
      if (name !== undefined) out.string(name);
      if (lang !== undefined) out.string(lang);
    }
    const terms = [...index.terms.entries()];
    out.uint(terms.length);
    for (const [term, pairs] of terms) {
      out.string(term);
      out.uint(pairs.length / 2);
      let previous = 0;
      for (let i = 0; i < pairs.length; i += 2) {
        out.uint(pairs[i] - previous);
        out.uint(pairs[i + 1]);
        previous = pairs[i];
      }
    }
    const loaded = deserializePassageIndex(out.finish());
    expect(contents(loaded)).toEqual(contents(index));
  });

  it('refuses damaged bytes with an error rather than a wrong index', () => {
    const bytes = serializePassageIndex(sample());
    expect(() => deserializePassageIndex(bytes.subarray(0, bytes.length - 30))).toThrow(RangeError);
    const foreign = new ByteWriter();
    foreign.uint(99);
    expect(() => deserializePassageIndex(foreign.finish())).toThrow(RangeError);
  });
});
