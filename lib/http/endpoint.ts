import { logError, logInfo } from '../log/index.js';
import { StoreUnavailableError } from '../store/unavailable.js';
import { HttpError, storeUnavailable } from './errors.js';
import { corsHeaders, errorResponse, securityHeaders } from './responses.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A handler of one method: a plain function of a Request. */
export type MethodHandler = (request: Request) => Response | Promise<Response>;

/** How an endpoint departs from the service's own conventions (for foreign wire formats). */
export interface EndpointOptions {
  /** Turns an error into its response; default `{ error, code }` JSON. */
  renderError?: (error: HttpError) => Response;
  /** Preflights allow whatever request headers the browser asks for (clients with extra headers). */
  allowRequestedHeaders?: boolean;
}

/** A Vercel Web-standard function: `export default endpoint({ POST })`. */
export interface Endpoint {
  fetch(request: Request): Promise<Response>;
}

/**
 * Wraps the method handlers of one path with what every endpoint shares: CORS and security
 * headers, OPTIONS preflight (204), HEAD wherever GET is (GET's status and headers, no body), 405
 * with Allow for other methods, HttpError -> JSON error, a store failure -> 503
 * `store_unavailable` (details logged, none in the body), any other exception -> logged 500
 * without details, and one log line per request.
 */
export function endpoint(
  handlers: Partial<Record<Method, MethodHandler>>,
  options: EndpointOptions = {},
): Endpoint {
  const renderError = options.renderError ?? errorResponse;
  const allowed = [...(Object.keys(handlers) as Method[]), ...(handlers.GET ? ['HEAD'] : []), 'OPTIONS'];
  const allow = allowed.join(', ');
  return {
    async fetch(request: Request): Promise<Response> {
      const started = performance.now();
      const answer = await dispatch(request);
      const response = request.method.toUpperCase() === 'HEAD' ? withoutBody(answer) : answer;
      logInfo('request', {
        method: request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        ms: Math.round(performance.now() - started),
      });
      return response;
    },
  };

  async function dispatch(request: Request): Promise<Response> {
    const method = request.method.toUpperCase();
    if (method === 'OPTIONS') {
      const requested = options.allowRequestedHeaders
        ? request.headers.get('access-control-request-headers')
        : null;
      return new Response(null, {
        status: 204,
        headers: {
          ...corsHeaders,
          ...securityHeaders,
          ...(requested ? { 'Access-Control-Allow-Headers': requested } : {}),
          'Access-Control-Allow-Methods': allow,
          Allow: allow,
        },
      });
    }
    const handler = method === 'HEAD' ? handlers.GET : handlers[method as Method];
    if (!handler) {
      return renderError(
        new HttpError(
          'method_not_allowed',
          `${method} is not supported here; use ${allow}.`,
          {},
          { Allow: allow },
        ),
      );
    }
    try {
      return withCors(await handler(request));
    } catch (error) {
      if (error instanceof HttpError) return renderError(error);
      if (error instanceof StoreUnavailableError) {
        logError('store_unavailable', error, { method, path: new URL(request.url).pathname });
        return renderError(storeUnavailable());
      }
      logError('unhandled', error, { method, path: new URL(request.url).pathname });
      return renderError(
        new HttpError('internal_error', 'Something went wrong on our side; please try again.'),
      );
    }
  }
}

function withCors(response: Response): Response {
  for (const [name, value] of Object.entries({ ...corsHeaders, ...securityHeaders })) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

/** The same status and headers without the body, as HEAD answers. */
function withoutBody(response: Response): Response {
  if (response.body === null) return response;
  void response.body.cancel().catch(() => {});
  return new Response(null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
