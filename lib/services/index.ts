import { type Config, getConfig, upstashCredentials } from '../config';
import { createStoreSlidingWindow, createUpstashLimiter } from '../limits';
import { setLogLevel } from '../log';
import {
  createEmbeddedStore,
  createUpstashRedis,
  createUpstashStore,
  type RateLimiter,
  type Store,
} from '../store';

export { serviceVersion } from './version';

/** Everything a handler needs, made once per instance; tests build their own with `createServices`. */
export interface Services {
  config: Config;
  store: Store;
  /** IP rate limiter of chat and train (both variants). */
  limiter: RateLimiter;
  /** Unix milliseconds when this instance started. */
  startedAt: number;
  now: () => number;
}

export type ServiceOverrides = Partial<Omit<Services, 'config'>>;

/** Builds the services of a configuration: Upstash store and limiter when configured, else embedded. */
export function createServices(config: Config, overrides: ServiceOverrides = {}): Services {
  const now = overrides.now ?? Date.now;
  const credentials = upstashCredentials(config);
  let store = overrides.store;
  let limiter = overrides.limiter;
  const limits = { requests: config.RATE_LIMIT_REQUESTS, windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS };
  if (credentials && (!store || !limiter)) {
    const redis = createUpstashRedis(credentials);
    store ??= createUpstashStore(redis, createUpstashRedis({ ...credentials, responseEncoding: false }));
    limiter ??= createUpstashLimiter(redis, limits);
  }
  store ??= createEmbeddedStore({ dataDir: config.DATA_DIR });
  limiter ??= createStoreSlidingWindow(store, limits);
  return { config, store, limiter, startedAt: now(), now };
}

let instance: Services | undefined;

/** The services of this instance, made from the environment on first use. */
export function defaultServices(): Services {
  if (!instance) {
    const config = getConfig();
    setLogLevel(config.LOG_LEVEL);
    instance = createServices(config);
  }
  return instance;
}
