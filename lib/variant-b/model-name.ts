import type { Config } from '../config/index.js';

/** The name of the model that answers: the external one when configured, else the local n-gram model. */
export function answeringModelName(config: Config): string {
  const local = `kneser-ney-${config.LM_ORDER}gram`;
  return config.LLM_BASE_URL && config.LLM_MODEL ? `${config.LLM_MODEL} (with ${local})` : local;
}
