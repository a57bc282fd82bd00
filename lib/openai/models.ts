import type { ModelMode } from '../chat/index.js';
import { HttpError } from '../http/index.js';

/** The model names of the OpenAI-compatible API: one per chat mode. */
export const openAIModels = {
  'local-instant': 'instant',
  'local-expert': 'expert',
  'local-apex': 'apex',
} as const satisfies Record<string, ModelMode>;

export type OpenAIModelName = keyof typeof openAIModels;

/** When the model list was first published (the `created` of every model), Unix seconds. */
const MODELS_CREATED = 1_767_225_600;

/** The chat mode a model name stands for; any other name is a 404 `model_not_found`. */
export function modeOfModel(name: string): ModelMode {
  if (Object.hasOwn(openAIModels, name)) return openAIModels[name as OpenAIModelName];
  throw new HttpError(
    'model_not_found',
    `The model '${name}' does not exist. Use one of: ${Object.keys(openAIModels).join(', ')}.`,
    { param: 'model' },
  );
}

/** The body of GET /api/v1/models. */
export function modelList(): {
  object: 'list';
  data: { id: string; object: 'model'; created: number; owned_by: string }[];
} {
  return {
    object: 'list',
    data: Object.keys(openAIModels).map((id) => ({
      id,
      object: 'model',
      created: MODELS_CREATED,
      owned_by: 'ngram-chat-backend',
    })),
  };
}
