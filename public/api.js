/** The service's HTTP interface as the page uses it, and its errors in words a person can act on. */

/** An answer other than 2xx: the status, the parsed body (JSON, text or null) and the headers. */
export class ApiError extends Error {
  constructor(status, body, headers) {
    super(typeof body?.error === 'string' ? body.error : `The service answered ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** The request never got an answer: the service is down, the URL is wrong, or CORS refused it. */
export class NetworkError extends Error {}

/** Trims whitespace and trailing slashes: `https://host/api/` -> `https://host/api`. */
export function normaliseBase(base) {
  return base.trim().replace(/\/+$/, '');
}

/** The calls of both variants against `base` (e.g. `https://host/api`). Each resolves to { body, headers }. */
export function createClient(base) {
  async function request(path, init = {}) {
    let response;
    try {
      response = await fetch(`${base}${path}`, init);
    } catch (error) {
      throw new NetworkError(String(error));
    }
    const text = await response.text();
    let body = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    if (!response.ok) throw new ApiError(response.status, body, response.headers);
    return { body, headers: response.headers };
  }

  const postJson = (path, payload) =>
    request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
    });

  return {
    health: () => request('/health'),
    chat: (payload) => postJson('/chat', payload),
    train: (text) => postJson('/train', { text }),
    upload(file) {
      const form = new FormData();
      form.append('file', file, file.name || 'image');
      return request('/upload', { method: 'POST', body: form });
    },
    chatB: (payload) => postJson('/api/chat', payload),
  };
}

/**
 * What went wrong, in words. `about` says what the request carried, so that a 413 names the
 * right thing: 'file' (an image upload or attachment) or 'text' (training text).
 */
export function describeError(error, base, about = 'file') {
  if (error instanceof NetworkError) return `Cannot reach the service at ${base}`;
  if (!(error instanceof ApiError)) return String(error?.message ?? error);
  const { status, body, headers } = error;
  if (status === 429) {
    if (body?.code === 'session_limit') {
      const limit = body.limit ?? headers.get('X-Session-Limit');
      return `This session has used all its ${limit} messages. Start a new session to go on.`;
    }
    const wait = headers.get('Retry-After') ?? body?.retryAfter;
    return wait !== null && wait !== undefined && /^\d+$/.test(String(wait).trim())
      ? `Too many requests — try again in ${String(wait).trim()} s`
      : 'Too many requests — try again shortly';
  }
  if (status === 413) {
    return about === 'text' ? 'That text is too long (max 1 MB)' : 'That file is too large (max 5 MB)';
  }
  if (status === 415) return 'That file is not an image we can read';
  if (typeof body?.error === 'string') return body.error;
  return `The service answered ${status}; please try again.`;
}
