import type { Endpoint } from '../http/index.js';
import { attachSocketAddress, errorResponse, HttpError } from '../http/index.js';
import { loadRoutes } from './routes.js';
import { serveStatic } from './static-files.js';

export { answerClientError } from './client-errors.js';
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
 * The same tree Vercel serves: /api/<path> -> api/<path>.ts, public/ at /, and one JSON 404
 * (`{ error, code: "not_found" }`) for every other path, under /api or not. The caller's socket
 * address is recorded against the request (not copied into a header), for `clientAddress`.
 */
export async function createLocalApp(options: { apiDir: string; publicDir: string }): Promise<LocalApp> {
  const routes: Map<string, Endpoint> = await loadRoutes(options.apiDir);
  return {
    routes: [...routes.keys()],
    async fetch(request, env) {
      const url = new URL(request.url);
      const route = routes.get(url.pathname.replace(/\/+$/, '') || '/');
      if (route) {
        attachSocketAddress(request, env?.incoming?.socket.remoteAddress);
        return route.fetch(request);
      }
      if (!isApiPath(url.pathname)) {
        const file = await serveStatic(options.publicDir, url.pathname);
        if (file) return staticAnswer(file, request.method);
      }
      const what = isApiPath(url.pathname) ? 'There is no endpoint' : 'There is nothing';
      return errorResponse(new HttpError('not_found', `${what} at ${url.pathname}.`));
    },
  };
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
