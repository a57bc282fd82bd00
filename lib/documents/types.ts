/**
 * The shape every document reader produces (text, Markdown, HTML, PDF, dialogue, Vim help): sections with a
 * heading path and body blocks. Retrieval, answers and the n-gram model read this shape, never a
 * format's own syntax.
 */

/**
 * How a training text is written. `text` is the default and today's behaviour; `vimhelp` is Vim's
 * help format (its manuals), also recognised in a text that carries Vim help's modeline.
 */
export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'dialogue' | 'vimhelp';

/**
 * What a body block is:
 * - `paragraph`: prose (hard-wrapped lines joined into one);
 * - `line`: one unit a physical line (a verse, a sentence a line), as KenLM reads a corpus;
 * - `list-item`: one item of a list, with `name` when it describes a name (`concat()`: …);
 * - `code`: a code block or an indented example, kept whole with its line breaks;
 * - `table-row`: one row of a table, as "name: description", with `name` its first cell;
 * - `quote`: a block quote.
 */
export type BlockKind = 'paragraph' | 'line' | 'list-item' | 'code' | 'table-row' | 'quote';

/** One body block of a section. */
export interface Block {
  kind: BlockKind;
  /** Plain text: no Markdown or HTML syntax (code keeps its line breaks, nothing else does). */
  text: string;
  /**
   * The block as Markdown, for replies when the source was Markdown or HTML: code fenced with its
   * language, inline code in backticks, a list item as "- …", a table row as "name: description".
   * Absent for plain-text sources.
   */
  markdown?: string;
  /** 1-based line of the stored text where the block starts. */
  line: number;
  /** 1-based page, for PDF. */
  page?: number;
  /** A code block's language, when known. */
  lang?: string;
  /** The name a list item or table row describes (its first cell, its leading `code` or term). */
  name?: string;
}

/** A section: its heading path (outermost first; empty before the first heading) and its body. */
export interface Section {
  /** Heading texts, plain: ["tar", "Options", "strip"]. */
  path: string[];
  blocks: Block[];
  /** 1-based page where the section starts, for PDF. */
  page?: number;
}

/** A trained text read by its structure. */
export interface ParsedDocument {
  format: DocumentFormat;
  /** File name given at training, for citations. */
  name?: string;
  /** The document's title when it has one (an HTML <title>, a Markdown H1). */
  title?: string;
  sections: Section[];
}

/** A statement and its answer, from a trained dialogue (`format: "dialogue"`). */
export interface DialoguePair {
  prompt: string;
  reply: string;
}

/** A training chunk as stored: the original text, its format and its file name. */
export interface StoredDocument {
  format: DocumentFormat;
  name?: string;
  /** The identity of the document this text belongs to (a file's path, a URL, `text-<hash>`). */
  documentId?: string;
  /** Where a citation of the document links (http or https). */
  url?: string;
  /** The text as trained; for PDF the extracted text with pages separated by form feeds (\f). */
  text: string;
}
