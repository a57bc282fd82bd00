import { createHash } from 'node:crypto';

/**
 * The session a useChat conversation counts against: its `id` scoped to the client (the verified
 * user when signed in, else the trusted address), as default sessions are, so one client can
 * neither spend nor continue another's conversation by sending its id. The ':' keeps these ids
 * apart from any `sessionId` a client may choose.
 */
export function conversationSessionId(
  conversationId: string,
  client: { userSubject?: string; address: string },
): string {
  const owner = client.userSubject !== undefined ? `user:${client.userSubject}` : `address:${client.address}`;
  const digest = createHash('sha256').update(`${owner}\n${conversationId}`).digest('hex').slice(0, 32);
  return `ui:${digest}`;
}
