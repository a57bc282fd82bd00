import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Config, ConfigError, upstashCredentials } from '../config/index.js';
import { HttpError } from '../http/errors.js';
import { createEmbeddedStore, guardStore, type Store, upstashStore } from '../store/index.js';

/** What a deployment without a remote store answers on every endpoint (503). */
export const storeUnconfiguredMessage =
  'This deployment has no data store: set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (or add the Upstash integration: KV_REST_API_URL/KV_REST_API_TOKEN) in the Vercel project settings, then redeploy.';

/**
 * A Vercel deployment (VERCEL set, VERCEL_ENV not `development`) cannot keep the embedded store:
 * its function folder is read-only and every instance has its own memory. Returns the 503 to
 * answer when no Upstash/KV credentials are set there, else undefined. `vercel dev` runs on the
 * developer's disk, where the embedded store works.
 */
export function storeUnconfigured(config: Config): HttpError | undefined {
  const deployed = config.VERCEL !== undefined && config.VERCEL_ENV !== 'development';
  if (!deployed || upstashCredentials(config)) return undefined;
  return new HttpError('store_unconfigured', storeUnconfiguredMessage);
}

/** Whether an error is the 503 of `storeUnconfigured`. */
export function isStoreUnconfigured(error: unknown): error is HttpError {
  return error instanceof HttpError && error.code === 'store_unconfigured';
}

/**
 * Makes sure the embedded store can live in `dataDir`: creates it and checks it is a writable
 * folder. Throws a one-line `ConfigError` naming the folder and the reason otherwise.
 */
export function ensureDataDir(dataDir: string): void {
  const folder = resolve(dataDir);
  try {
    mkdirSync(folder, { recursive: true });
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? 'permission denied'
        : code === 'EEXIST' || code === 'ENOTDIR'
          ? 'a file is in the way'
          : ((error as Error).message ?? String(error));
    throw new ConfigError(
      `DATA_DIR ${folder} cannot be used (${reason}): set DATA_DIR to a folder this user can write, or set UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN.`,
    );
  }
}

/**
 * The whole store of a configuration, above any namespace (the previews CLI): Upstash when its
 * credentials are set, else the embedded store under DATA_DIR.
 */
export function rootStoreFromConfig(config: Config): Store {
  const credentials = upstashCredentials(config);
  if (credentials) return guardStore(upstashStore(credentials));
  ensureDataDir(config.DATA_DIR);
  return guardStore(createEmbeddedStore({ dataDir: config.DATA_DIR }));
}
