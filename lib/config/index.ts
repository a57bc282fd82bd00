import * as v from 'valibot';
import { type Config, configSchema } from './schema.js';

export { branchNamespace, isPreview, previewCorpus, storeNamespace } from './namespace.js';
export type { Config } from './schema.js';
export { configSchema } from './schema.js';

/** Thrown when an environment variable has an invalid value; the message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Parses environment variables into a typed configuration. Empty strings count as unset.
 * Throws `ConfigError` naming every invalid variable.
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const present: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') present[key] = value;
  }
  const result = v.safeParse(configSchema, present);
  if (!result.success) {
    const lines = result.issues.map((issue) => {
      const name = v.getDotPath(issue) ?? 'environment';
      return `${name}: ${issue.message} (got ${JSON.stringify(issue.input)})`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const config = result.output;
  const url = config.UPSTASH_REDIS_REST_URL ?? config.KV_REST_API_URL;
  const token = config.UPSTASH_REDIS_REST_TOKEN ?? config.KV_REST_API_TOKEN;
  if ((url === undefined) !== (token === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (or KV_REST_API_URL and KV_REST_API_TOKEN) must be set together',
    );
  }
  if (config.LLM_BASE_URL !== undefined && config.LLM_MODEL === undefined) {
    throw new ConfigError('Invalid configuration:\n  LLM_MODEL: must be set when LLM_BASE_URL is set');
  }
  return config;
}

let cached: Config | undefined;

/** The configuration of this process, parsed once from `process.env`. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Drops the cached configuration (tests that change `process.env`). */
export function resetConfig(): void {
  cached = undefined;
}

/** The variables that point the service at a remote store (Upstash's own names, then Vercel KV's). */
export const STORE_VARIABLES = [
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'KV_REST_API_URL',
  'KV_REST_API_TOKEN',
] as const;

/** The Redis REST credentials when a remote store is configured. */
export function upstashCredentials(config: Config): { url: string; token: string } | undefined {
  const url = config.UPSTASH_REDIS_REST_URL ?? config.KV_REST_API_URL;
  const token = config.UPSTASH_REDIS_REST_TOKEN ?? config.KV_REST_API_TOKEN;
  return url && token ? { url, token } : undefined;
}
