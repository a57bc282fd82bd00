/** The service's HTTP interface as the page uses it (same origin), and its errors in words. */
import { readEvents } from './sse.js';

/** An answer other than 2xx: the status, the parsed body (JSON, text or null) and the headers. */
export class ApiError extends Error {
  constructor(status, body, headers) {
    super(typeof body?.error === 'string' ? body.error : `The service answered ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }

  /** Seconds a 429 asks to wait, or null when it says none. */
  get retryAfter() {
    return retryAfterSeconds(this);
  }
}

/** The request never got an answer: the service is down or the connection broke. */
export class NetworkError extends Error {}

/** The reply stream ended with an `error` event, or ended without its `done` event. */
export class StreamError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

async function parseBody(response) {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function request(path, init = {}) {
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw new NetworkError(String(error?.message ?? error));
  }
  if (!response.ok) throw new ApiError(response.status, await parseBody(response), response.headers);
  return response;
}

const jsonInit = (payload, accept, signal) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: accept },
  body: JSON.stringify(payload),
  signal,
});

/**
 * Sends a chat message to `path` ('api/chat' for Variant A, 'api/api/chat' for B) asking for a
 * stream; `onDelta(text)` gets each piece of the reply as it comes. Resolves to
 * `{ body, headers, streamed }` where `body` is the full response object (the `done` event, or
 * the JSON body of a server that answered without streaming).
 */
export async function sendChat(path, payload, { onDelta, signal } = {}) {
  const response = await request(path, jsonInit(payload, 'text/event-stream, application/json', signal));
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.startsWith('text/event-stream')) {
    return { body: await parseBody(response), headers: response.headers, streamed: false };
  }
  for await (const { event, data } of readEvents(response.body)) {
    if (event === 'delta') onDelta?.(JSON.parse(data).text ?? '');
    else if (event === 'done') return { body: JSON.parse(data), headers: response.headers, streamed: true };
    else if (event === 'error') {
      const failure = JSON.parse(data);
      throw new StreamError(failure.error ?? 'The reply failed part-way', failure.code);
    }
  }
  throw new StreamError('The reply was cut off before it finished', 'stream_incomplete');
}

/** POST /api/train with `{ text }`; resolves to `{ ok, tokens, vocabSize }`. */
export async function train(text, { signal, format, name } = {}) {
  const body = { text, ...(format && format !== 'text' ? { format } : {}), ...(name ? { name } : {}) };
  const response = await request('api/train', jsonInit(body, 'application/json', signal));
  return parseBody(response);
}

/** POST /api/train with a whole file (a PDF: the server extracts its text); resolves like `train`. */
export async function trainFile(file, { signal } = {}) {
  const form = new FormData();
  form.append('file', file, file.name || 'document');
  return parseBody(await request('api/train', { method: 'POST', body: form, signal }));
}

/** GET /api/health; resolves to its body (a degraded service rejects with an ApiError). */
export async function health() {
  return parseBody(await request('api/health'));
}

/** POST /api/upload with an image file; resolves to `{ base64, mimeType, width, height, ... }`. */
export async function upload(file) {
  const form = new FormData();
  form.append('file', file, file.name || 'image');
  return parseBody(await request('api/upload', { method: 'POST', body: form }));
}

/** Seconds a 429 asks to wait (Retry-After, else the body's retryAfter), or null when it says none. */
export function retryAfterSeconds(error) {
  const value = error?.headers?.get?.('Retry-After') ?? error?.body?.retryAfter;
  if (value === null || value === undefined) return null;
  const seconds = Number(String(value).trim());
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/**
 * What went wrong, in words a person can act on. `about` says what the request carried, so a
 * 413 names the right thing: 'file' (an image) or 'text' (training text).
 */
export function describeError(error, about = 'file') {
  if (error instanceof NetworkError) return 'Cannot reach the service. Check your connection and try again.';
  if (error instanceof StreamError) return error.message;
  if (!(error instanceof ApiError)) return String(error?.message ?? error);
  const { status, body, headers } = error;
  if (status === 429) {
    if (body?.code === 'session_limit') {
      const limit = body.limit ?? headers.get('X-Session-Limit');
      return `This session has used all its ${limit} messages. Start a new session to go on.`;
    }
    const wait = retryAfterSeconds(error);
    return wait === null
      ? 'Too many requests — try again shortly'
      : `Too many requests — try again in ${wait} s`;
  }
  if (status === 413) {
    return about === 'text' ? 'That text is too long (max 1 MB)' : 'That file is too large (max 5 MB)';
  }
  if (status === 415) return 'That file is not an image we can read';
  if (typeof body?.error === 'string') return body.error;
  return `The service answered ${status}; please try again.`;
}

/** POST /api/feedback: the visitor's thumbs on a reply; resolves to `{ ok, replyId, rating }`. */
export async function rateReply(replyId, rating, comment = '') {
  const body = { replyId, rating, ...(comment ? { comment } : {}) };
  return parseBody(await request('api/feedback', jsonInit(body, 'application/json')));
}

/** An owner's request: X-Owner-Email and the admin token as a bearer. */
export async function ownerRequest(path, owner, init = {}) {
  const headers = {
    'X-Owner-Email': owner.email,
    Authorization: `Bearer ${owner.token}`,
    Accept: 'application/json',
  };
  return parseBody(await request(path, { ...init, headers: { ...headers, ...(init.headers ?? {}) } }));
}
