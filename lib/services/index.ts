import type { OwnerGuard, TokenVerifier } from '../auth/index.js';
import { ownerGuardFromConfig, verifierFromConfig } from '../auth/index.js';
import {
  type Config,
  getConfig,
  previewCorpus,
  storeNamespace,
  upstashCredentials,
} from '../config/index.js';
import { clientAddressResolver } from '../http/index.js';
import { createFailedProofLimiter, createStoreSlidingWindow, createUpstashLimiter } from '../limits/index.js';
import { logError, setLogLevel } from '../log/index.js';
import { type ExternalModel, providerFromConfig } from '../provider/index.js';
import { starterTextFromConfig } from '../starter/index.js';
import {
  createEmbeddedStore,
  createUpstashRedis,
  createUpstashStore,
  guardStore,
  namespacedStore,
  namespacePrefix,
  type RateLimiter,
  type Store,
} from '../store/index.js';
import { createModelKeeper, layeredCorpus, type ModelKeeper, maxCorpusBytesOf } from '../training/index.js';
import { recognizerOptionsOf, sharedTextRecognizer, type TextRecognizer } from '../vision/index.js';
import { createWikipediaClient, defaultWikiUserAgent, type WikipediaClient } from '../wiki/index.js';
import { fixedModelFromConfig } from './fixed-model.js';
import { isStoreUnconfigured, storeUnconfigured } from './store-choice.js';

export {
  ensureDataDir,
  isStoreUnconfigured,
  rootStoreFromConfig,
  storeUnconfigured,
} from './store-choice.js';
export { serviceVersion } from './version.js';

/** Everything a handler needs, made once per instance; tests build their own with `createServices`. */
export interface Services {
  config: Config;
  /** The store as this deployment sees it: every key under its namespace (STORE_NAMESPACE). */
  store: Store;
  /** The whole store above any namespace: previews' cleanup (owner only), never a request's data. */
  rootStore: Store;
  /** IP rate limiter of chat, train and upload (both variants). */
  limiter: RateLimiter;
  /**
   * The caller's address the limits count: the socket's, unless TRUST_PROXY_HEADER names the
   * header of your proxy, or Vercel's own header on Vercel.
   */
  clientAddress: (request: Request) => string;
  /** Verifies identity-provider ID tokens (sign-in for the larger allowance). */
  verifier: TokenVerifier;
  /** Admin check: X-Owner-Email plus a proof. */
  ownerGuard: OwnerGuard;
  /** The optional external model; undefined when LLM_BASE_URL is unset. */
  externalModel: ExternalModel | undefined;
  wikipedia: WikipediaClient;
  /** The local language model, kept in step with the training corpus in the store. */
  model: ModelKeeper;
  /** Reads the text in images (one engine per process, started on the first image). */
  textRecognizer: TextRecognizer;
  /** Unix milliseconds when this instance started. */
  startedAt: number;
  now: () => number;
  /** Random source of reply sampling (seeded in tests). */
  random: () => number;
}

export type ServiceOverrides = Partial<Omit<Services, 'config' | 'rootStore'>>;

/** The key prefix of the IP rate limiter, under the deployment's namespace. */
export function rateLimitPrefix(config: Config): string {
  return `${namespacePrefix(storeNamespace(config))}ratelimit`;
}

/**
 * Builds the services of a configuration: Upstash store and limiter when configured, else
 * embedded; every key under the deployment's namespace (`storeNamespace`), and a preview's model
 * over production's corpus when `previewCorpus` says so. A `store` override is the whole store
 * (the namespace is applied to it); a `limiter` override is used as it is. Throws the 503 `store_unconfigured` HttpError on a Vercel deployment without
 * Upstash/KV credentials, before anything touches the disk.
 */
export function createServices(config: Config, overrides: ServiceOverrides = {}): Services {
  const now = overrides.now ?? Date.now;
  const credentials = upstashCredentials(config);
  if (!overrides.store) {
    const unconfigured = storeUnconfigured(config);
    if (unconfigured) throw unconfigured;
  }
  let rootStore = overrides.store;
  let limiter = overrides.limiter;
  const namespace = storeNamespace(config);
  const limits = { requests: config.RATE_LIMIT_REQUESTS, windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS };
  if (credentials && (!rootStore || !limiter)) {
    const redis = createUpstashRedis(credentials);
    rootStore ??= createUpstashStore(redis, createUpstashRedis({ ...credentials, responseEncoding: false }));
    limiter ??= createUpstashLimiter(redis, { ...limits, prefix: rateLimitPrefix(config) });
  }
  rootStore ??= createEmbeddedStore({ dataDir: config.DATA_DIR });
  // Every backend's failures become StoreUnavailableError, which lib/http answers with a 503.
  rootStore = guardStore(rootStore);
  const store = guardStore(namespacedStore(rootStore, namespace));
  // The embedded limiter writes through the namespaced store: its keys are namespaced already.
  limiter ??= createStoreSlidingWindow(store, limits);
  const verifier = overrides.verifier ?? verifierFromConfig(config);
  const wikipedia =
    overrides.wikipedia ??
    createWikipediaClient({
      baseUrl: config.WIKIPEDIA_BASE_URL,
      timeoutMs: config.WIKIPEDIA_TIMEOUT_MS,
      userAgent: config.WIKIPEDIA_USER_AGENT ?? defaultWikiUserAgent,
      cache: store,
      cacheSeconds: config.WIKIPEDIA_CACHE_SECONDS,
    });
  const model =
    overrides.model ??
    createModelKeeper(store, {
      order: config.LM_ORDER,
      snapshotEvery: config.LM_SNAPSHOT_EVERY,
      snapshotBytes: config.LM_SNAPSHOT_BYTES,
      maxCorpusBytes: maxCorpusBytesOf(config),
      fixedModel: fixedModelFromConfig(config),
      starterText: starterTextFromConfig(config),
      ...(previewCorpus(config) === 'production' ? { corpus: layeredCorpus(store) } : {}),
    });
  const clientAddress =
    overrides.clientAddress ??
    clientAddressResolver({
      trustHeader: config.TRUST_PROXY_HEADER,
      hops: config.TRUST_PROXY_HOPS,
      onVercel: config.VERCEL !== undefined,
    });
  return {
    config,
    store,
    rootStore,
    model,
    textRecognizer: overrides.textRecognizer ?? sharedTextRecognizer(recognizerOptionsOf(config)),
    limiter,
    clientAddress,
    verifier,
    ownerGuard:
      overrides.ownerGuard ??
      ownerGuardFromConfig(config, verifier, {
        failedProofs: createFailedProofLimiter(store),
        clientAddress,
      }),
    externalModel: 'externalModel' in overrides ? overrides.externalModel : providerFromConfig(config),
    wikipedia,
    startedAt: now(),
    now,
    random: overrides.random ?? Math.random,
  };
}

let instance: Services | undefined;
let unconfiguredLogged = false;

/**
 * The services of this instance, made from the environment on first use. Without a store on
 * Vercel every call throws the 503 `store_unconfigured` (logged once per instance).
 */
export function defaultServices(): Services {
  if (!instance) {
    const config = getConfig();
    setLogLevel(config.LOG_LEVEL);
    try {
      instance = createServices(config);
    } catch (error) {
      if (isStoreUnconfigured(error) && !unconfiguredLogged) {
        unconfiguredLogged = true;
        logError('store_unconfigured', error.message);
      }
      throw error;
    }
  }
  return instance;
}
