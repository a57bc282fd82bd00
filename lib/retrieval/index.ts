export { type Passage, type PassageHit, PassageIndex, type SectionInfo } from './passage-index.js';
export { deserializePassageIndex, serializePassageIndex } from './persistence.js';
export { distinctTermsOf, type QueryTerm, queryTermsOf, searchTerm, termsOf } from './terms.js';
