/** The site owner's proof, sent as X-Owner-Email and Authorization: Bearer on every request. */
export interface OwnerCredentials {
  email: string;
  token: string;
}

export function ownerHeaders(owner: OwnerCredentials | undefined): Record<string, string> {
  return owner ? { 'x-owner-email': owner.email, authorization: `Bearer ${owner.token}` } : {};
}

/** The short reason a request got no answer: ECONNREFUSED, ENOTFOUND, ... */
export function networkMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'UND_ERR_SOCKET') return 'the connection closed without an answer';
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}
