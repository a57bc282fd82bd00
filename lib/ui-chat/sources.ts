import type { Source } from '../pipeline/index.js';

/** A source as the AI SDK's `source-document` part carries it. */
export interface SourceDocument {
  sourceId: string;
  mediaType: 'text/plain';
  title: string;
  filename?: string;
  /** The passage itself and where it is, under this service's name. */
  providerMetadata: { ngram: Record<string, unknown> };
}

/**
 * The title a person reads for a source: its document and section when the source knows them
 * (`file`/`document`, `section` and a PDF's `page`, on the source or its `ref`), an article's
 * title, else the training text's chunk and line.
 */
export function sourceTitle(source: Source): string {
  const fields = { ...(source.ref as object), ...(source as object) } as Record<string, unknown>;
  const document = named(fields.document) ?? named(fields.file) ?? named(fields.title);
  const section = named(fields.section);
  const page = typeof fields.page === 'number' ? `, page ${fields.page}` : '';
  if (document && section && section !== document) return `${document} — ${section}${page}`;
  if (document ?? section) return `${document ?? section}${page}`;
  const { chunk, line } = fields;
  if (typeof chunk === 'number' && typeof line === 'number') return `chunk ${chunk}, line ${line}`;
  if (typeof chunk === 'number') return `chunk ${chunk}`;
  return 'trained text';
}

/** Source `n` (1-based, as the reply's `[n]` citations count) as a `source-document` part. */
export function sourceDocument(source: Source, n: number): SourceDocument {
  const fields = { ...(source.ref as object), ...(source as object) } as Record<string, unknown>;
  const filename = named(fields.file);
  return {
    sourceId: `source-${n}`,
    mediaType: 'text/plain',
    title: sourceTitle(source),
    ...(filename ? { filename } : {}),
    providerMetadata: { ngram: JSON.parse(JSON.stringify({ n, ...source })) },
  };
}

/** A non-empty name: a string, or a heading path (its parts joined). */
function named(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (Array.isArray(value)) {
    const parts = value.filter((part): part is string => typeof part === 'string' && part.trim() !== '');
    return parts.length > 0 ? parts.join(' › ') : undefined;
  }
  return undefined;
}
