/** Store keys of a chat session. */
export const sessionKeys = {
  /** Messages counted against the session's allowance. */
  count: (sessionId: string) => `session-count:${sessionId}`,
  /** The conversation: JSON turns, oldest first. */
  turns: (sessionId: string) => `session-turns:${sessionId}`,
  countPrefix: 'session-count:',
  turnsPrefix: 'session-turns:',
  /** Totals over all sessions (messages, sessions). */
  stats: 'stats:chat',
} as const;
