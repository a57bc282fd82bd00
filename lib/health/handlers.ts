import { json, type MethodHandler } from '../http';
import type { Services } from '../services';
import { trainingKeys } from '../training/keys';
import { healthReport } from '.';

/** GET /api/health: 200 with status and vocabulary size, 503 when the store cannot be reached. */
export function healthHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    async GET() {
      const current = services();
      const report = await healthReport(current, () => current.store.scard(trainingKeys.vocabulary));
      return json(report, report.status === 'ok' ? 200 : 503);
    },
  };
}
