import { readFileSync } from 'node:fs';
import type { Config } from '../config/index.js';
import { type LanguageModel, loadArpa } from '../lm/index.js';

/** The ARPA model named by LM_ARPA_PATH, served instead of the trained one; undefined when unset. */
export function fixedModelFromConfig(config: Config): LanguageModel | undefined {
  if (!config.LM_ARPA_PATH) return undefined;
  return loadArpa(readFileSync(config.LM_ARPA_PATH, 'utf8'));
}
