import { createHash } from 'node:crypto';
import { HttpError } from '../http/index.js';
import type { Store, StoreBatch } from '../store/index.js';
import { sessionKeys } from './keys.js';

export { sessionKeys } from './keys.js';

/** One turn of a conversation as kept in the store. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
  /** The image a user turn came with: its id and the lines of text read in it (kept for follow-ups). */
  image?: { id: string; lines: string[] };
}

/** Turns kept per session; older ones are trimmed. */
export const MAX_STORED_TURNS = 40;

export interface SessionStart {
  /** This message's number in the session (1 = first). */
  used: number;
  limit: number;
  remaining: number;
  /** The conversation so far, oldest first. */
  history: Turn[];
  /** Extra results of the same round trip, in the order of `also`. */
  also: unknown[];
}

/**
 * Counts a message against the session's allowance and reads its history in one atomic round trip.
 * Throws 429 `session_limit` when the allowance is spent. `also` adds read operations (e.g. the
 * number of training chunks) to the same batch.
 */
export async function beginSessionMessage(
  store: Store,
  sessionId: string,
  options: { limit: number; ttlSeconds: number; also?: (batch: ReturnType<Store['batch']>) => void },
): Promise<SessionStart> {
  const batch = store
    .batch()
    .incr(sessionKeys.count(sessionId), options.ttlSeconds)
    .lrange(sessionKeys.turns(sessionId), -MAX_STORED_TURNS, -1);
  options.also?.(batch);
  const results = await batch.exec();
  const used = Number(results[0]);
  const remaining = Math.max(0, options.limit - used);
  if (used > options.limit) {
    throw new HttpError(
      'session_limit',
      `This session has used all of its ${options.limit} messages. Start a new session${options.limit < 50 ? ' or sign in for a larger allowance' : ''}.`,
      { limit: options.limit, remaining: 0 },
      sessionHeaders(options.limit, 0),
    );
  }
  return { used, limit: options.limit, remaining, history: parseTurns(results[1]), also: results.slice(2) };
}

/** Appends the user's message and the reply to the session, in one round trip. */
export async function recordExchange(
  store: Store,
  sessionId: string,
  turns: Turn[],
  options: {
    ttlSeconds: number;
    firstMessage: boolean;
    /** More writes for the same round trip (the question log's). */
    also?: (batch: StoreBatch) => void;
  },
): Promise<void> {
  const key = sessionKeys.turns(sessionId);
  const batch = store
    .batch()
    .rpush(key, ...turns.map((turn) => JSON.stringify(turn)))
    .ltrim(key, -MAX_STORED_TURNS, -1)
    .expire(key, options.ttlSeconds)
    .hincrby(sessionKeys.stats, 'messages', 1);
  if (options.firstMessage) batch.hincrby(sessionKeys.stats, 'sessions', 1);
  options.also?.(batch);
  await batch.exec();
}

/** The sessionId a request gets when it names none (or names "default"). */
export const DEFAULT_SESSION_ID = 'default';

/**
 * The session a message counts against: the one the client named, or, for "default", a default
 * session of this client alone (its verified user when signed in, else its trusted address), so
 * that one client spending its default allowance leaves everyone else's untouched. The id holds a
 * ':' that client-chosen ids cannot, so no client can name another's default session.
 */
export function scopedSessionId(
  sessionId: string,
  client: { userSubject?: string; address: string },
): string {
  if (sessionId !== DEFAULT_SESSION_ID) return sessionId;
  const owner = client.userSubject !== undefined ? `user:${client.userSubject}` : `address:${client.address}`;
  return `${DEFAULT_SESSION_ID}:${createHash('sha256').update(owner).digest('hex').slice(0, 32)}`;
}

/** X-Session-Limit and X-Session-Remaining. */
export function sessionHeaders(limit: number, remaining: number): Record<string, string> {
  return { 'X-Session-Limit': String(limit), 'X-Session-Remaining': String(remaining) };
}

function parseTurns(raw: unknown): Turn[] {
  if (!Array.isArray(raw)) return [];
  const turns: Turn[] = [];
  for (const item of raw) {
    try {
      const turn = JSON.parse(String(item)) as Turn;
      if ((turn.role === 'user' || turn.role === 'assistant') && typeof turn.content === 'string')
        turns.push(turn);
    } catch {
      // a damaged entry is skipped, the rest of the conversation still counts
    }
  }
  return turns;
}
