import type { Config } from '../config/schema.js';
import { createProvider } from './create-provider.js';
import type { ExternalModel } from './types.js';

type ProviderConfig = Pick<
  Config,
  | 'LLM_BASE_URL'
  | 'LLM_API_KEY'
  | 'LLM_MODEL'
  | 'LLM_MODEL_INSTANT'
  | 'LLM_MODEL_EXPERT'
  | 'LLM_MODEL_APEX'
  | 'LLM_TIMEOUT_MS'
  | 'LLM_VISION'
>;

/** The external model described by the LLM_* variables, or undefined when LLM_BASE_URL is unset. */
export function providerFromConfig(
  config: ProviderConfig,
  fetch?: typeof globalThis.fetch,
): ExternalModel | undefined {
  if (config.LLM_BASE_URL === undefined) return undefined;
  if (config.LLM_MODEL === undefined) throw new Error('LLM_MODEL must be set when LLM_BASE_URL is set');
  return createProvider({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    modelByMode: {
      instant: config.LLM_MODEL_INSTANT,
      expert: config.LLM_MODEL_EXPERT,
      apex: config.LLM_MODEL_APEX,
    },
    timeoutMs: config.LLM_TIMEOUT_MS,
    vision: config.LLM_VISION,
    fetch,
  });
}
