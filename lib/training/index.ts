export { type CorpusSource, type CorpusStats, layeredCorpus, ownCorpus } from './corpus-source.js';
export { trainingKeys } from './keys.js';
export {
  type CorpusPosition,
  createModelKeeper,
  type ModelKeeper,
  type ModelKeeperOptions,
  type TrainOptions,
  type TrainResult,
} from './model-keeper.js';
