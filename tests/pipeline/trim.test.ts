import { describe, expect, it } from 'vitest';
import { withoutPageReferences } from '../../lib/pipeline/extract/trim.js';

describe('a quoted sentence', () => {
  it("drops a printed manual's parenthesised page cross-references, and nothing else", () => {
    const sentence =
      'Exit immediately if a pipeline (see Section 3.2.3 [Pipelines], page 10), which may consist of a single simple command (see Section 3.2.2 [Simple Commands], page 9), or a list (see Chapter 8 [Command Line Editing], pages 123-125) returns a non-zero status (an error).';
    expect(withoutPageReferences(sentence)).toBe(
      'Exit immediately if a pipeline, which may consist of a single simple command, or a list returns a non-zero status (an error).',
    );
    const plain = 'See Section 3.2.3 [Pipelines], page 10, for more (page 4 has a table).';
    expect(withoutPageReferences(plain)).toBe(plain);
  });
});
