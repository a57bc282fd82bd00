export { CLAIM_SECONDS, claimDocument } from './claims.js';
export {
  corpusCeilingFor,
  instanceMemoryBytes,
  MEMORY_PER_TEXT_BYTE,
  maxCorpusBytesOf,
} from './corpus-ceiling.js';
export { type CorpusSource, type CorpusStats, layeredCorpus, ownCorpus } from './corpus-source.js';
export {
  type DocumentTrainAnswer,
  decodeCursor,
  deleteDocument,
  listDocuments,
  MAX_DOCUMENTS_PAGE,
  type TrainStatus,
  trainDocument,
} from './documents.js';
export { trainingKeys } from './keys.js';
export {
  type CorpusPosition,
  createModelKeeper,
  type ModelKeeper,
  type ModelKeeperOptions,
  STARTER_DOCUMENT_ID,
  type TrainOptions,
  type TrainResult,
} from './model-keeper.js';
export { type TrainInput, textDocumentId, trainInputOf } from './train-document.js';
