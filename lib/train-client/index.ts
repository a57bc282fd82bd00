export { deleteDocument, type ListedDocument, listDocuments } from './documents.js';
export {
  kindOfFile,
  SelectionError,
  type SourceFolder,
  type SourceKind,
  type SourceSelection,
  selectSources,
  sourceUrlOf,
  type TrainSource,
} from './files.js';
export { type OwnerCredentials, ownerHeaders } from './owner.js';
export { formatBytes, progressLine } from './progress.js';
export {
  asciidocToHtml,
  looksLikeAsciiDoc,
  mdxAsMarkdown,
  PartPacker,
  type PreparedDocument,
  partsOf,
  prepareSource,
  type SentFormat,
  splitForTraining,
  splitMarkdownForTraining,
  utf8Bytes,
} from './read/index.js';
export {
  DEFAULT_RETRIES,
  type PartResult,
  type RetryLimits,
  retryAfterMs,
  type SendNotice,
  type SendOptions,
  sendFile,
  sendPart,
  TrainPartError,
  type TrainStatus,
} from './send.js';
export { checkReachable, defaultServiceUrl, type ServiceUrls, serviceUrlsOf } from './service.js';
export { type FileOutcome, type SyncEvent, SyncStopped, type SyncSummary, syncDocuments } from './sync.js';
