export {
  DEFAULT_READ_LIMITS,
  type ReadLimits,
  type ReadRefusal,
  readBounded,
  readLimitsOf,
  readWorkersStarted,
} from './bounded/index.js';
export { decodeChunk, encodeChunk, encodeForget, forgottenIdOf } from './chunk.js';
export { cleanName, cleanTrainingText } from './clean-text.js';
export { extractPdfText } from './extract-pdf.js';
export { DOCUMENT_EXTENSIONS, formatOfFile, requireFormatOfFile } from './file-format.js';
export { plainTextOf } from './plain-text.js';
export { readDocument } from './read-document.js';
export { readDialogue } from './readers/dialogue.js';
export { redirectTarget } from './readers/html.js';
export {
  type DocumentRecord,
  decodeDocumentRecord,
  encodeDocumentRecord,
  publicDocument,
} from './table.js';
export type {
  Block,
  BlockKind,
  DialoguePair,
  DocumentFormat,
  ParsedDocument,
  Section,
  StoredDocument,
} from './types.js';
