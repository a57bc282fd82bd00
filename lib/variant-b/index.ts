export { fitHistory, HISTORY_TOKEN_BUDGET } from './history';
export { decompose } from './local-reasoning';
export { answeringModelName } from './model-name';
export { respondVariantB, type VariantBResponse } from './respond';
export {
  type HistoryItem,
  MAX_B_MESSAGE_CHARS,
  MAX_HISTORY_ITEM_CHARS,
  type ReasoningMode,
  reasoningModes,
  VARIANT_B_BODY_LIMIT_BYTES,
  type VariantBRequest,
  variantBRequestSchema,
} from './schema';
