/** Which address of a request the rate limits count: where it is read from and how far to trust it. */
export interface ClientAddressPolicy {
  /**
   * A request header set by a proxy you run (TRUST_PROXY_HEADER), e.g. `x-forwarded-for` or
   * `x-real-ip`; undefined trusts no header and counts the socket's address.
   */
  trustHeader?: string;
  /**
   * Which comma-separated entry of that header, counted from the right (TRUST_PROXY_HOPS): 1 is
   * the one your proxy appended; entries further left were written by the client and are ignored.
   */
  hops: number;
  /**
   * On Vercel (`VERCEL` set) without a trusted header: Vercel's edge overwrites `x-real-ip` with
   * the caller's address (what `@vercel/functions`' `ipAddress()` reads), so that one is used.
   */
  onVercel: boolean;
}

/** Header the Vercel edge sets to the connecting client's address, replacing whatever came in. */
export const VERCEL_ADDRESS_HEADER = 'x-real-ip';
/** Longest address kept; anything longer is not an address and counts as absent. */
const MAX_ADDRESS_CHARS = 64;

const socketAddresses = new WeakMap<Request, string>();

/**
 * Records the address of the socket a request arrived on (the local server does this), without
 * copying the request: `clientAddress` finds it by the request object itself.
 */
export function attachSocketAddress(request: Request, address: string | undefined): void {
  if (address) socketAddresses.set(request, address.replace(/^::ffff:/, ''));
}

/** The address of the socket the request arrived on, when the server recorded it. */
export function socketAddress(request: Request): string | undefined {
  return socketAddresses.get(request);
}

/**
 * The caller's address under a policy: the trusted proxy header's entry when one is configured
 * and present, else (on Vercel) the platform's header, else the socket's address, else
 * "unknown". A header the policy does not name is never read, so a client cannot choose its
 * own address.
 */
export function clientAddress(request: Request, policy: ClientAddressPolicy): string {
  const header = policy.trustHeader ?? (policy.onVercel ? VERCEL_ADDRESS_HEADER : undefined);
  const hops = policy.trustHeader ? policy.hops : 1;
  const fromHeader = header ? entryFromRight(request.headers.get(header), hops) : undefined;
  return fromHeader ?? socketAddress(request) ?? 'unknown';
}

/** `clientAddress` bound to a policy, as the services hand it to handlers. */
export function clientAddressResolver(policy: ClientAddressPolicy): (request: Request) => string {
  return (request) => clientAddress(request, policy);
}

function entryFromRight(value: string | null, hops: number): string | undefined {
  if (!value) return undefined;
  const entries = value.split(',');
  if (entries.length < hops) return undefined;
  const entry = entries[entries.length - hops]!.trim().replace(/^::ffff:/, '');
  if (entry === '' || entry.length > MAX_ADDRESS_CHARS) return undefined;
  return entry;
}
