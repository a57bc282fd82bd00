import { networkMessage } from './owner.js';

/** Where the service is: its base (for /api/admin/...) and its train endpoint. */
export interface ServiceUrls {
  base: string;
  train: string;
}

/**
 * The URLs of a service from `--url`: a base (`http://host:3000`) or the train endpoint itself
 * (`http://host:3000/api/train`). Throws on a URL that is not absolute http(s).
 */
export function serviceUrlsOf(given: string): ServiceUrls {
  let parsed: URL;
  try {
    parsed = new URL(given);
  } catch {
    throw new Error(`--url ${given} is not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`--url ${given} is not http(s)`);
  const basePath = parsed.pathname.replace(/\/api\/train\/?$/, '').replace(/\/+$/, '');
  const base = new URL(`${basePath}/`, parsed).href;
  return { base, train: new URL('api/train', base).href };
}

/** The default --url: TRAIN_URL, else this machine's `npm start` on $PORT (3000). */
export function defaultServiceUrl(env: NodeJS.ProcessEnv): string {
  return env.TRAIN_URL || `http://localhost:${env.PORT || '3000'}`;
}

const REACH_TIMEOUT_MS = 5000;

/**
 * Resolves when something answers HTTP at the base (any status will do), else rejects at once
 * with the URL tried, rather than a run that spends minutes retrying a service that is not there.
 */
export async function checkReachable(
  base: string,
  fetch: typeof globalThis.fetch = globalThis.fetch,
): Promise<void> {
  const url = new URL('api/health', base).href;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(REACH_TIMEOUT_MS) });
    await response.body?.cancel();
  } catch (error) {
    const why =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${REACH_TIMEOUT_MS / 1000} s`
        : networkMessage(error);
    throw new Error(
      `nothing answers at ${base} (${why}). Start the service (npm start), or give its address with --url or TRAIN_URL.`,
    );
  }
}
