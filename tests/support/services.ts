import { parseConfig } from '../../lib/config/index.js';
import { createUpstashLimiter } from '../../lib/limits/index.js';
import {
  createServices,
  rateLimitPrefix,
  type ServiceOverrides,
  type Services,
} from '../../lib/services/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import { redisDatabase } from './redis.js';

/** Services on a fresh real-Redis database (through the Upstash bridge), with the given variables (no starter text unless asked). */
export async function redisServices(
  env: Record<string, string> = {},
  overrides: ServiceOverrides = {},
): Promise<Services & { redisUrl: string; redisToken: string }> {
  const database = await redisDatabase();
  const config = parseConfig({
    STARTER_TEXT: 'off',
    UPSTASH_REDIS_REST_URL: database.url,
    UPSTASH_REDIS_REST_TOKEN: database.token,
    ...env,
  });
  // The test's own clients have retries off, so a failure shows at once.
  const limiter = createUpstashLimiter(database.redis, {
    requests: config.RATE_LIMIT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    prefix: rateLimitPrefix(config),
  });
  const services = createServices(config, { store: database.store, limiter, ...overrides });
  return { ...services, redisUrl: database.url, redisToken: database.token };
}

/** Services on a fresh in-memory embedded store. */
export function embeddedServices(
  env: Record<string, string> = {},
  overrides: ServiceOverrides = {},
): Services {
  return createServices(parseConfig({ STARTER_TEXT: 'off', ...env }), {
    store: createEmbeddedStore(),
    ...overrides,
  });
}

/** A JSON POST request as a browser would send it. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-real-ip': '192.0.2.10', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
