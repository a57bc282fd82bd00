export { signedInUser } from './identity.js';
export { type ChatImage, type ChatImageSource, imageSourceOf, readChatImage } from './image-input.js';
export { type ChatOutcome, respondToChat } from './respond.js';
export {
  CHAT_BODY_LIMIT_BYTES,
  type ChatRequest,
  type ChatResponse,
  chatRequestSchema,
  MAX_MESSAGE_CHARS,
  MAX_REPLY_TOKENS,
  type ModelMode,
} from './schema.js';
