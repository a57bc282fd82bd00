import { getConfig } from '../config/index.js';
import { type HttpError, storeUnavailable } from '../http/index.js';
import { logError } from '../log/index.js';
import type { Services } from '../services/index.js';
import { serviceVersion } from '../services/index.js';
import type { HealthDegraded, HealthReport } from './schema.js';

export {
  type HealthDegraded,
  type HealthOk,
  type HealthReport,
  healthDegradedSchema,
  healthOkSchema,
} from './schema.js';

/**
 * Pings the store and reads the vocabulary size (one cheap read, or none for an ARPA model) in
 * parallel; a store that cannot be reached makes the report degraded.
 */
export async function healthReport(services: Services): Promise<HealthReport> {
  const base = {
    store: services.store.kind,
    version: serviceVersion,
    uptimeSeconds: Math.round((services.now() - services.startedAt) / 1000),
    externalModel: services.config.LLM_BASE_URL !== undefined,
  };
  try {
    const [, vocabSize, starterGuide] = await Promise.all([
      services.store.ping(),
      services.model.vocabSize(),
      services.model.starterGuide(),
    ]);
    return { status: 'ok', vocabSize, ...base, starterGuide };
  } catch (error) {
    logError('store_unavailable', error, { path: 'health' });
    return { status: 'degraded', vocabSize: null, ...base, ...storeUnavailableBody() };
  }
}

/** The degraded report of a Vercel deployment without a store (`store_unconfigured`). */
export function unconfiguredReport(error: HttpError): HealthDegraded {
  const config = getConfig();
  return {
    status: 'degraded',
    vocabSize: null,
    store: 'none',
    version: serviceVersion,
    uptimeSeconds: Math.round(process.uptime()),
    externalModel: config.LLM_BASE_URL !== undefined,
    error: error.message,
    code: 'store_unconfigured',
  };
}

/** Whether the store answers; failures are logged, never shown. */
export async function storeReachable(services: Services): Promise<boolean> {
  try {
    await services.store.ping();
    return true;
  } catch (error) {
    logError('store_unavailable', error, { path: 'health' });
    return false;
  }
}

/** The `error` and `code` of a degraded health report: what to do, nothing about the backend. */
export function storeUnavailableBody(): { error: string; code: 'store_unavailable' } {
  return { error: storeUnavailable().message, code: 'store_unavailable' };
}
