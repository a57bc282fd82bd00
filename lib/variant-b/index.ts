export { fitHistory, HISTORY_TOKEN_BUDGET } from './history.js';
export { decompose } from './local-reasoning.js';
export { answeringModelName } from './model-name.js';
export { respondVariantB, type VariantBResponse } from './respond.js';
export {
  type HistoryItem,
  MAX_B_MESSAGE_CHARS,
  MAX_HISTORY_ITEM_CHARS,
  type ReasoningMode,
  reasoningModes,
  VARIANT_B_BODY_LIMIT_BYTES,
  type VariantBRequest,
  variantBRequestSchema,
} from './schema.js';
