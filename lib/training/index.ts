export { trainingKeys } from './keys';
export {
  type CorpusPosition,
  createModelKeeper,
  type ModelKeeper,
  type ModelKeeperOptions,
  type TrainResult,
} from './model-keeper';
