export { type DocumentFile, documentFilesOf } from './files.js';
export { formatBytes, progressLine } from './progress.js';
export {
  type PartResult,
  retryAfterMs,
  type SendNotice,
  type SendOptions,
  sendFile,
  sendPart,
  TrainPartError,
} from './send.js';
export { PartPacker, partsOf, splitForTraining, splitMarkdownForTraining, utf8Bytes } from './split.js';
