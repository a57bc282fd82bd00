export { type ApiAccess, apiAccess } from './access.js';
export { openAIError, openAIErrorResponse } from './errors.js';
export { chatCompletionsHandlers, modelsHandlers } from './handlers.js';
export { modelList, modeOfModel, type OpenAIModelName, openAIModels } from './models.js';
export { type ChatCompletionRequest, chatCompletionRequestSchema } from './schema.js';
