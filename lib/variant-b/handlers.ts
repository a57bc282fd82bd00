import { json, type MethodHandler } from '../http';
import { type Services, serviceVersion } from '../services';
import { answeringModelName } from './model-name';

/** GET /api/api/health: `{ status, model, version }`. */
export function variantBHealthHandlers(services: () => Services): { GET: MethodHandler } {
  return {
    GET() {
      return json({ status: 'ok', model: answeringModelName(services().config), version: serviceVersion });
    },
  };
}
