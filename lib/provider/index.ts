export { type AssistInput, assistPrompt, externalTokenBudget } from './assist-prompt.js';
export { completeOrStream, rethrowIfInterrupted } from './complete-or-stream.js';
export { createProvider } from './create-provider.js';
export { ExternalModelError, type ExternalModelFailure } from './errors.js';
export { providerFromConfig } from './from-config.js';
export type {
  ChatMessage,
  Completion,
  CompletionRequest,
  ContentPart,
  ExternalModel,
  ImageContent,
  Mode,
  ProviderOptions,
  TextContent,
} from './types.js';
