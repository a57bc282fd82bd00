import { getConfig } from '../config/index.js';
import type { HttpError } from '../http/index.js';
import type { Services } from '../services/index.js';
import { serviceVersion } from '../services/index.js';

/** What GET /api/health reports. */
export interface HealthReport {
  status: 'ok' | 'degraded';
  vocabSize: number | null;
  store: string;
  version: string;
  uptimeSeconds: number;
  externalModel: boolean;
  error?: string;
  code?: string;
}

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
    const [, vocabSize] = await Promise.all([services.store.ping(), services.model.vocabSize()]);
    return { status: 'ok', vocabSize, ...base };
  } catch (error) {
    return {
      status: 'degraded',
      vocabSize: null,
      ...base,
      error: `The store cannot be reached: ${(error as Error).message}`,
      code: 'store_unavailable',
    };
  }
}

/** The degraded report of a Vercel deployment without a store (`store_unconfigured`). */
export function unconfiguredReport(error: HttpError): HealthReport {
  const config = getConfig();
  return {
    status: 'degraded',
    vocabSize: null,
    store: 'none',
    version: serviceVersion,
    uptimeSeconds: Math.round(process.uptime()),
    externalModel: config.LLM_BASE_URL !== undefined,
    error: error.message,
    code: error.code,
  };
}
