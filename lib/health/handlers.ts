import { isOwnerRequest } from '../auth/index.js';
import { json, type MethodHandler } from '../http/index.js';
import { HOW_TO_TEACH } from '../questions/handlers.js';
import { isStoreUnconfigured, type Services } from '../services/index.js';
import { type HealthOk, healthReport, unconfiguredReport } from './index.js';

/**
 * GET /api/health: 200 with status and vocabulary size, 503 (`degraded`) when the store cannot be
 * reached or, on a Vercel deployment, is not configured; for the owner also how to teach it.
 */
export function healthHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    async GET(request) {
      let current: Services;
      try {
        current = services();
      } catch (error) {
        if (isStoreUnconfigured(error)) return json(unconfiguredReport(error), 503);
        throw error;
      }
      const report = await healthReport(current);
      if (report.status !== 'ok') return json(report, 503);
      // How to teach the service is said to its owner only (X-Owner-Email with its proof), never to a visitor.
      const owner = current.ownerGuard ? await isOwnerRequest(current.ownerGuard, request) : false;
      return json(owner ? ({ ...report, howToTeach: HOW_TO_TEACH } satisfies HealthOk) : report);
    },
  };
}
