import { isIP } from 'node:net';
import * as v from 'valibot';
import { HttpError, json, type MethodHandler } from '../http/index.js';
import type { Services } from '../services/index.js';
import { DEFAULT_SESSION_ID, scopedSessionId, sessionKeys } from '../sessions/index.js';
import { sessionIdSchema } from '../sessions/schema.js';
import type { AdminStats, DeleteSessionResult, ResetModelResult } from './schema.js';

export type Handlers = Partial<Record<'GET' | 'POST' | 'DELETE', MethodHandler>>;

/** Runs a handler only for the owner (X-Owner-Email plus ADMIN_TOKEN or the owner's ID token). */
export function ownerOnly(services: () => Services, handler: MethodHandler): MethodHandler {
  return async (request) => {
    await services().ownerGuard.check(request);
    return handler(request);
  };
}

/** GET /api/admin/stats: sessions, messages, vocabulary and corpus size. */
export function adminStatsHandlers(services: () => Services): Handlers {
  return {
    GET: ownerOnly(services, async () => {
      const { store, model } = services();
      const [activeSessions, totals, vocabSize, corpus] = await Promise.all([
        store.countKeys(sessionKeys.countPrefix),
        store.hgetall(sessionKeys.stats),
        model.vocabSize(),
        model.stats(),
      ]);
      return json({
        sessions: { active: activeSessions, total: Number(totals.sessions ?? 0) },
        messages: Number(totals.messages ?? 0),
        vocabSize,
        corpus,
        store: store.kind,
      } satisfies AdminStats);
    }),
  };
}

/** POST /api/admin/reset-model: forgets all training; every instance starts over. */
export function adminResetModelHandlers(services: () => Services): Handlers {
  return {
    POST: ownerOnly(services, async () => {
      await services().model.reset();
      return json({ ok: true, vocabSize: 0 } satisfies ResetModelResult);
    }),
  };
}

/**
 * DELETE /api/admin/session?id=<sessionId>: deletes one session's conversation and allowance count.
 * A client's default session is named by that client: `id=default&address=<its address>` or
 * `id=default&user=<its verified subject>`.
 */
export function adminSessionHandlers(services: () => Services): Handlers {
  return {
    DELETE: ownerOnly(services, async (request) => {
      const params = new URL(request.url).searchParams;
      const named = params.get('id');
      const address = params.get('address');
      const user = params.get('user');
      if (!named || !v.is(sessionIdSchema, named)) {
        throw new HttpError(
          'bad_request',
          'Give the session to delete: DELETE /api/admin/session?id=<sessionId> (for a default session add &address=<client address> or &user=<subject>).',
        );
      }
      const client = clientOf(named, address, user);
      const id = client ? scopedSessionId(DEFAULT_SESSION_ID, client) : named;
      const deleted = await services().store.del(sessionKeys.count(id), sessionKeys.turns(id));
      const which = client
        ? `default session of ${user !== null ? `user "${user}"` : `address ${address}`}`
        : `session "${named}"`;
      if (deleted === 0) throw new HttpError('not_found', `There is no ${which}.`);
      return json({
        ok: true,
        sessionId: named,
        ...(user !== null ? { user } : address !== null ? { address } : {}),
      } satisfies DeleteSessionResult);
    }),
  };
}

/** The client whose default session `id=default` means, from `address` or `user`; null for other ids. */
function clientOf(
  id: string,
  address: string | null,
  user: string | null,
): { address: string; userSubject?: string } | null {
  if (id !== DEFAULT_SESSION_ID) {
    if (address !== null || user !== null) {
      throw new HttpError(
        'bad_request',
        '"address" and "user" name a default session: use them with id=default.',
      );
    }
    return null;
  }
  if ((address === null) === (user === null)) {
    throw new HttpError(
      'bad_request',
      'Every client has its own default session: add &address=<client address> or &user=<verified subject>, one of the two.',
    );
  }
  if (user !== null) {
    if (user.length === 0 || user.length > 255)
      throw new HttpError('bad_request', 'user: 1 to 255 characters.');
    return { address: '', userSubject: user };
  }
  if (!isIP(address!))
    throw new HttpError('bad_request', `address: "${address}" is not an IPv4 or IPv6 address.`);
  return { address: address! };
}

/** GET /api/admin/export: the training corpus as plain text. */
export function adminExportHandlers(services: () => Services): Handlers {
  return {
    GET: ownerOnly(services, async () => {
      const corpus = await services().model.exportCorpus();
      return new Response(corpus, {
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          'Content-Disposition': 'attachment; filename="training-corpus.txt"',
        },
      });
    }),
  };
}
