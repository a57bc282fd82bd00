import { json, type MethodHandler } from '../http/index.js';
import type { Services } from '../services/index.js';
import { healthReport } from './index.js';

/** GET /api/health: 200 with status and vocabulary size, 503 when the store cannot be reached. */
export function healthHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    async GET() {
      const current = services();
      const report = await healthReport(current);
      return json(report, report.status === 'ok' ? 200 : 503);
    },
  };
}
