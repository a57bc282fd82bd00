export { trainingKeys } from './keys.js';
export {
  type CorpusPosition,
  createModelKeeper,
  type ModelKeeper,
  type ModelKeeperOptions,
  type TrainResult,
} from './model-keeper.js';
