export { type AssistInput, assistPrompt } from './assist-prompt';
export { createProvider } from './create-provider';
export { ExternalModelError, type ExternalModelFailure } from './errors';
export { providerFromConfig } from './from-config';
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
} from './types';
