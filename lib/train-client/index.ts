export { formatBytes, progressLine } from './progress.js';
export {
  type PartResult,
  retryAfterMs,
  type SendNotice,
  type SendOptions,
  sendPart,
  TrainPartError,
} from './send.js';
export { PartPacker, partsOf, splitForTraining, utf8Bytes } from './split.js';
