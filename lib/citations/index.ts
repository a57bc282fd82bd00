export { type Citation, type CitationInput, citationOf, headingPathOf } from './cite.js';
export { withCitation, withCitations } from './source.js';
