/**
 * Finds the issuer's JWKS URL from `<issuer>/.well-known/openid-configuration`. The answer is
 * kept for the life of the process; a failed lookup is not kept, so the next call tries again.
 */
export function createJwksDiscovery(
  issuer: string,
  fetch: typeof globalThis.fetch,
  timeoutMs: number,
): () => Promise<URL> {
  let found: Promise<URL> | undefined;
  return () => {
    found ??= discover(issuer, fetch, timeoutMs).catch((error: unknown) => {
      found = undefined;
      throw error;
    });
    return found;
  };
}

async function discover(issuer: string, fetch: typeof globalThis.fetch, timeoutMs: number): Promise<URL> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) {
    throw new Error(
      `${url} names the issuer ${JSON.stringify(document.issuer)}, not ${JSON.stringify(issuer)}`,
    );
  }
  if (typeof document.jwks_uri !== 'string') throw new Error(`${url} has no jwks_uri`);
  return new URL(document.jwks_uri);
}
