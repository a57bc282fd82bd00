import { json, type MethodHandler } from '../http/index.js';
import { isStoreUnconfigured, type Services } from '../services/index.js';
import { healthReport, unconfiguredReport } from './index.js';

/**
 * GET /api/health: 200 with status and vocabulary size, 503 (`degraded`) when the store cannot be
 * reached or, on a Vercel deployment, is not configured.
 */
export function healthHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    async GET() {
      let current: Services;
      try {
        current = services();
      } catch (error) {
        if (isStoreUnconfigured(error)) return json(unconfiguredReport(error), 503);
        throw error;
      }
      const report = await healthReport(current);
      return json(report, report.status === 'ok' ? 200 : 503);
    },
  };
}
