import { networkMessage, type OwnerCredentials, ownerHeaders } from './owner.js';

/** What the server did with a document (`pending`: a part that is not the last one). */
export type TrainStatus = 'trained' | 'replaced' | 'unchanged' | 'pending';

/** What the server said about one request. */
export interface PartResult {
  status: TrainStatus;
  tokens: number;
  vocabSize: number;
  documentId?: string;
}

/** Something the sender tells the user about while it waits. */
export type SendNotice =
  | { kind: 'limited'; status: number; waitMs: number; attempt: number }
  | { kind: 'busy'; waitMs: number; attempt: number }
  | { kind: 'server-error'; status: number; message: string; waitMs: number; attempt: number }
  | { kind: 'network'; message: string; waitMs: number; attempt: number };

/** The document a request belongs to (issue 29's contract); all optional for plain text. */
export interface DocumentFields {
  documentId?: string;
  /** Where a citation links (`url` in the body). */
  sourceUrl?: string;
  /** SHA-256 hex of the whole document, the same on every part. */
  sha256?: string;
  part?: number;
  parts?: number;
}

export interface SendOptions extends DocumentFields {
  /** The train endpoint, e.g. `http://localhost:3000/api/train`. */
  url: string;
  /** For text without a documentId: sent as Idempotency-Key so a retry is not learnt twice. */
  idempotencyKey?: string;
  owner?: OwnerCredentials;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  onNotice?: (notice: SendNotice) => void;
  /** How many times each kind of trouble is waited out; see DEFAULT_RETRIES. */
  retries?: Partial<RetryLimits>;
  /** How the text is written (`text` when absent): `markdown`, `html`, `dialogue`. */
  format?: string;
  /** The file name the service cites the text by. */
  name?: string;
}

/** Retries allowed per kind of trouble, counted apart. */
export interface RetryLimits {
  /** 429 and 503: the limiter or a busy store, which say when to come back. */
  limited: number;
  /** 409 train_in_progress: another request holds the document's claim, which expires in seconds. */
  busy: number;
  /** Another 5xx: likely the file itself, so only a couple of quick tries. */
  serverError: number;
  /** No answer: a server restarting gets about half a minute. */
  network: number;
}

export const DEFAULT_RETRIES: RetryLimits = { limited: 20, busy: 120, serverError: 2, network: 5 };

/** A request the server refused (bad input, conflict ...) or that failed every attempt. */
export class TrainPartError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'TrainPartError';
  }

  /** 401/403: no later file can fare better, so the run stops. */
  get refusesEveryFile(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
const SERVER_ERROR_WAIT_MS = 500;

/** Sends text to POST /api/train as JSON, with the document's fields and the retries above. */
export function sendPart(text: string, options: SendOptions): Promise<PartResult> {
  const body = JSON.stringify({
    text,
    ...(options.format && options.format !== 'text' ? { format: options.format } : {}),
    ...(options.name ? { name: options.name } : {}),
    ...documentBody(options),
  });
  return sendWithRetries(() => ({ headers: { 'content-type': 'application/json' }, body }), options);
}

/**
 * Sends a whole file (a PDF: the server extracts its text) as a multipart form, with the same
 * fields and retries as `sendPart`.
 */
export function sendFile(bytes: Uint8Array, filename: string, options: SendOptions): Promise<PartResult> {
  return sendWithRetries(() => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)]), filename);
    if (options.name) form.set('name', options.name);
    for (const [key, value] of Object.entries(documentBody(options))) form.set(key, String(value));
    return { body: form };
  }, options);
}

function documentBody(fields: DocumentFields): Record<string, string | number> {
  const body: Record<string, string | number> = {};
  if (fields.documentId !== undefined) body.documentId = fields.documentId;
  if (fields.sourceUrl !== undefined) body.url = fields.sourceUrl;
  if (fields.sha256 !== undefined) body.sha256 = fields.sha256;
  if (fields.parts !== undefined && fields.parts > 1) {
    body.part = fields.part ?? 1;
    body.parts = fields.parts;
  }
  return body;
}

async function sendWithRetries(
  init: () => { headers?: Record<string, string>; body: string | FormData },
  options: SendOptions,
): Promise<PartResult> {
  const fetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const limits = { ...DEFAULT_RETRIES, ...options.retries };
  const used: RetryLimits = { limited: 0, busy: 0, serverError: 0, network: 0 };
  const retry = async (kind: keyof RetryLimits, notice: SendNotice, problem: string) => {
    if (used[kind] >= limits[kind]) {
      const attempts = Object.values(used).reduce((a, b) => a + b, 1);
      throw new TrainPartError(`gave up after ${attempts} attempts; last: ${problem}`);
    }
    used[kind]++;
    options.onNotice?.(notice);
    await sleep(notice.waitMs);
  };
  for (let attempt = 1; ; attempt++) {
    const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** used.network);
    let response: Response;
    try {
      const { headers, body } = init();
      response = await fetch(options.url, {
        method: 'POST',
        headers: {
          ...headers,
          ...ownerHeaders(options.owner),
          ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        },
        body,
      });
    } catch (error) {
      const message = networkMessage(error);
      await retry('network', { kind: 'network', message, waitMs: backoff, attempt }, message);
      continue;
    }
    if (response.ok) return readResult(response);
    const { message, code } = await errorOf(response);
    const problem = `HTTP ${response.status}: ${message}`;
    const retryAfter = retryAfterMs(response.headers.get('retry-after'));
    if (response.status === 409 && code === 'train_in_progress') {
      await retry('busy', { kind: 'busy', waitMs: retryAfter ?? FIRST_BACKOFF_MS, attempt }, problem);
    } else if (response.status === 429 || response.status === 503) {
      const waitMs = retryAfter ?? backoff;
      await retry('limited', { kind: 'limited', status: response.status, waitMs, attempt }, problem);
    } else if (response.status >= 500) {
      const waitMs = SERVER_ERROR_WAIT_MS * 2 ** used.serverError;
      const notice = { kind: 'server-error', status: response.status, message, waitMs, attempt } as const;
      await retry('serverError', notice, problem);
    } else {
      // 4xx, 422 idempotency_conflict included: the same request would get the same answer.
      throw new TrainPartError(problem, response.status, code);
    }
  }
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const STATUSES: readonly string[] = ['trained', 'replaced', 'unchanged', 'pending'];

async function readResult(response: Response): Promise<PartResult> {
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  const status = body?.status;
  if (response.status === 202 && status === 'pending') {
    return { status: 'pending', tokens: 0, vocabSize: 0, documentId: body?.documentId as string };
  }
  if (typeof body?.tokens !== 'number' || typeof body.vocabSize !== 'number') {
    if (status === 'unchanged') return { status, tokens: 0, vocabSize: 0 };
    throw new TrainPartError(
      `the server answered ${response.status} without { tokens, vocabSize }; is --url a train endpoint?`,
    );
  }
  return {
    // A server from before documents had ids answers without a status: it learnt the text.
    status: typeof status === 'string' && STATUSES.includes(status) ? (status as TrainStatus) : 'trained',
    tokens: body.tokens,
    vocabSize: body.vocabSize,
    ...(typeof body.documentId === 'string' ? { documentId: body.documentId } : {}),
  };
}

/** The service's JSON error (`{ error, code }`), else the start of whatever came back. */
export async function errorOf(response: Response): Promise<{ message: string; code?: string }> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown };
    if (typeof body.error === 'string') {
      return { message: body.error, ...(typeof body.code === 'string' ? { code: body.code } : {}) };
    }
  } catch {
    // not JSON: show the start of the text
  }
  return { message: text.slice(0, 200) || response.statusText };
}
