export { type Citation, type CitationInput, citationOf, headingPathOf } from './cite.js';
export { sourceRefSchema, sourceSchema } from './schema.js';
export { withCitation, withCitations } from './source.js';
