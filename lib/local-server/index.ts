import type { Endpoint } from '../http/index.js';
import { json } from '../http/index.js';
import { loadRoutes } from './routes.js';
import { serveStatic } from './static-files.js';

export { discoverRoutes, loadRoutes } from './routes.js';

/** What the Node adapter passes beside the Request: the incoming message and its socket. */
export interface NodeBindings {
  incoming?: { socket: { remoteAddress?: string } };
}

export interface LocalApp {
  fetch(request: Request, env?: NodeBindings): Promise<Response>;
  routes: string[];
}

/**
 * The same tree Vercel serves: /api/<path> -> api/<path>.ts, public/ at /. The caller's socket
 * address becomes x-real-ip when no proxy header says otherwise, as Vercel's edge sets it.
 */
export async function createLocalApp(options: { apiDir: string; publicDir: string }): Promise<LocalApp> {
  const routes: Map<string, Endpoint> = await loadRoutes(options.apiDir);
  return {
    routes: [...routes.keys()],
    async fetch(request, env) {
      const url = new URL(request.url);
      const route = routes.get(url.pathname.replace(/\/+$/, '') || '/');
      if (route) return route.fetch(withClientAddress(request, env?.incoming));
      if (url.pathname.startsWith('/api/')) {
        return json({ error: `There is no endpoint at ${url.pathname}.`, code: 'not_found' }, 404);
      }
      if (request.method === 'GET' || request.method === 'HEAD') {
        const file = await serveStatic(options.publicDir, url.pathname);
        if (file) return file;
      }
      return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
    },
  };
}

function withClientAddress(request: Request, incoming: NodeBindings['incoming']): Request {
  const address = incoming?.socket.remoteAddress;
  if (!address || request.headers.has('x-real-ip') || request.headers.has('x-forwarded-for')) return request;
  const headers = new Headers(request.headers);
  headers.set('x-real-ip', address.replace(/^::ffff:/, ''));
  return new Request(request.url, {
    method: request.method,
    headers,
    body: request.body,
    signal: request.signal,
    // Node needs half duplex to forward a streaming body.
    ...(request.body ? { duplex: 'half' } : {}),
  } as RequestInit);
}
