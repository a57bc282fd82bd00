import type { Source } from '../pipeline/index.js';
import { type Citation, citationOf, headingPathOf } from './cite.js';

/** The fields a source may carry beyond today's (`documentId`, `url`, `format`, `anchor`: the documents issue). */
interface DocumentFields {
  documentId?: string;
  url?: string;
  format?: string;
  anchor?: string;
  title?: string;
}

/**
 * A source with its citation fields: `title` (the document's name), `section` (heading path),
 * `url` (the document's url plus the section's anchor or `#page=N`) and `page`; `section` is kept
 * as the passage index writes it. An encyclopedia
 * article already has its title and url; a line of an image has none.
 */
export function withCitation<T extends Source>(source: T): T & Citation {
  const ref = source.ref as Record<string, unknown>;
  if ('image' in ref) return source;
  if (!('chunk' in ref)) {
    const article = ref as { title: string; url: string };
    return { ...source, title: article.title, url: article.url };
  }
  const fields = source as T & DocumentFields;
  const citation = citationOf({
    title: fields.title ?? fields.file ?? fields.documentId,
    path: headingPathOf(source.section),
    url: fields.url,
    page: source.page,
    anchor: fields.anchor,
    format: fields.format,
  });
  // `section` stays as the passage index writes it ("tar > Options"): clients already read that form.
  const { section: _joined, ...linked } = citation;
  return { ...source, ...linked };
}

/** Every source of a reply with its citation fields. */
export function withCitations<T extends Source>(sources: readonly T[]): (T & Citation)[] {
  return sources.map(withCitation);
}
