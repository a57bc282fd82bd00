import { HttpError, json, type MethodHandler } from '../http/index.js';
import type { Services } from '../services/index.js';
import { sessionKeys } from '../sessions/index.js';

type Handlers = Partial<Record<'GET' | 'POST' | 'DELETE', MethodHandler>>;

/** Runs a handler only for the owner (X-Owner-Email plus ADMIN_TOKEN or the owner's ID token). */
function ownerOnly(services: () => Services, handler: MethodHandler): MethodHandler {
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
      });
    }),
  };
}

/** POST /api/admin/reset-model: forgets all training; every instance starts over. */
export function adminResetModelHandlers(services: () => Services): Handlers {
  return {
    POST: ownerOnly(services, async () => {
      await services().model.reset();
      return json({ ok: true, vocabSize: 0 });
    }),
  };
}

/** DELETE /api/admin/session?id=<sessionId>: deletes one session's conversation and allowance count. */
export function adminSessionHandlers(services: () => Services): Handlers {
  return {
    DELETE: ownerOnly(services, async (request) => {
      const id = new URL(request.url).searchParams.get('id');
      if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
        throw new HttpError(
          'bad_request',
          'Give the session to delete: DELETE /api/admin/session?id=<sessionId>.',
        );
      }
      const deleted = await services().store.del(sessionKeys.count(id), sessionKeys.turns(id));
      if (deleted === 0) throw new HttpError('not_found', `There is no session "${id}".`);
      return json({ ok: true, sessionId: id });
    }),
  };
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
