import type { Endpoint } from '../http/index.js';
import { errorResponse, HttpError } from '../http/index.js';
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

/** Methods the Fetch standard forbids in a `new Request`: only the original request carries them. */
const uncopyableMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The same tree Vercel serves: /api/<path> -> api/<path>.ts, public/ at /, and one JSON 404
 * (`{ error, code: "not_found" }`) for every other path, under /api or not. The caller's socket
 * address becomes x-real-ip when no proxy header says otherwise, as Vercel's edge sets it.
 */
export async function createLocalApp(options: { apiDir: string; publicDir: string }): Promise<LocalApp> {
  const routes: Map<string, Endpoint> = await loadRoutes(options.apiDir);
  return {
    routes: [...routes.keys()],
    async fetch(request, env) {
      const url = new URL(request.url);
      const route = routes.get(url.pathname.replace(/\/+$/, '') || '/');
      // A TRACE cannot be copied (the copy would throw: a bodiless 500); its answer is a 405 anyway.
      if (route && uncopyableMethods.has(request.method)) return route.fetch(request);
      if (route) return route.fetch(withClientAddress(request, env?.incoming));
      if (!isApiPath(url.pathname)) {
        const file = await serveStatic(options.publicDir, url.pathname);
        if (file) return staticAnswer(file, request.method);
      }
      const what = isApiPath(url.pathname) ? 'There is no endpoint' : 'There is nothing';
      return errorResponse(new HttpError('not_found', `${what} at ${url.pathname}.`));
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

function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** A file of public/ answers GET and HEAD (no body); other methods get a JSON 405 with Allow. */
function staticAnswer(file: Response, method: string): Response {
  if (method === 'GET') return file;
  void file.body?.cancel().catch(() => {});
  if (method === 'HEAD') return new Response(null, { status: file.status, headers: file.headers });
  const allow = 'GET, HEAD';
  return errorResponse(
    new HttpError(
      'method_not_allowed',
      `${method} is not supported here; use ${allow}.`,
      {},
      { Allow: allow },
    ),
  );
}

/**
 * Node hands CONNECT (a proxy tunnel request, no path) to a separate event and drops the socket
 * when nobody listens: answer it with the same JSON 405 as any other unsupported method.
 */
export function refuseConnect(socket: { end(chunk: string): void }): void {
  const allow = 'GET, HEAD, POST, DELETE, OPTIONS';
  const body = JSON.stringify(
    new HttpError('method_not_allowed', `CONNECT is not supported here; use ${allow}.`).toBody(),
  );
  socket.end(
    [
      'HTTP/1.1 405 Method Not Allowed',
      'Content-Type: application/json; charset=utf-8',
      `Allow: ${allow}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
