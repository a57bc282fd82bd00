/** What the server said about one trained part. */
export interface PartResult {
  tokens: number;
  vocabSize: number;
}

/** Something the sender tells the user about while it waits. */
export type SendNotice =
  | { kind: 'limited'; status: number; waitMs: number; attempt: number }
  | { kind: 'network'; message: string; waitMs: number; attempt: number };

export interface SendOptions {
  /** The train endpoint, e.g. `http://localhost:3000/api/train`. */
  url: string;
  /** Sent as Idempotency-Key, so that a retry after a lost answer is not learnt twice. */
  idempotencyKey: string;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  onNotice?: (notice: SendNotice) => void;
  /** Attempts in all before giving up (default 8). */
  attempts?: number;
  /** How the text is written (`text` when absent): `markdown`, `html`, `dialogue`. */
  format?: string;
  /** The file name the service cites the text by. */
  name?: string;
}

/** A part the server refused (bad input, too large ...) or that failed every attempt. */
export class TrainPartError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'TrainPartError';
  }
}

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

/**
 * Sends one part to POST /api/train. A 429 or 503 waits for its Retry-After (or backs off when
 * there is none), a network error or another 5xx backs off exponentially; any other status is
 * final. Resolves with the server's counts.
 */
export function sendPart(text: string, options: SendOptions): Promise<PartResult> {
  const body = JSON.stringify({
    text,
    ...(options.format && options.format !== 'text' ? { format: options.format } : {}),
    ...(options.name ? { name: options.name } : {}),
  });
  return sendWithRetries(() => ({ headers: { 'content-type': 'application/json' }, body }), options);
}

/**
 * Sends a whole file (a PDF: the server extracts its text) as a multipart form, with the same
 * retries as `sendPart`.
 */
export function sendFile(bytes: Uint8Array, filename: string, options: SendOptions): Promise<PartResult> {
  return sendWithRetries(() => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)]), filename);
    if (options.name) form.set('name', options.name);
    return { body: form };
  }, options);
}

async function sendWithRetries(
  init: () => { headers?: Record<string, string>; body: string | FormData },
  options: SendOptions,
): Promise<PartResult> {
  const fetch = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const attempts = options.attempts ?? 8;
  let lastProblem = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempt - 1));
    let response: Response;
    try {
      const { headers, body } = init();
      response = await fetch(options.url, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': options.idempotencyKey },
        body,
      });
    } catch (error) {
      lastProblem = networkMessage(error);
      if (attempt === attempts) break;
      options.onNotice?.({ kind: 'network', message: lastProblem, waitMs: backoff, attempt });
      await sleep(backoff);
      continue;
    }
    if (response.ok) return readResult(response);
    const problem = await errorMessage(response);
    lastProblem = `HTTP ${response.status}: ${problem}`;
    const retryable = response.status === 429 || response.status >= 500;
    if (!retryable) throw new TrainPartError(lastProblem, response.status);
    if (attempt === attempts) break;
    const waitMs = retryAfterMs(response.headers.get('retry-after')) ?? backoff;
    options.onNotice?.({ kind: 'limited', status: response.status, waitMs, attempt });
    await sleep(waitMs);
  }
  throw new TrainPartError(`gave up after ${attempts} attempts; last: ${lastProblem}`);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function readResult(response: Response): Promise<PartResult> {
  const body = (await response.json().catch(() => null)) as Partial<PartResult> | null;
  if (typeof body?.tokens !== 'number' || typeof body.vocabSize !== 'number') {
    throw new TrainPartError(
      'the server answered 200 without { tokens, vocabSize }; is --url a train endpoint?',
    );
  }
  return { tokens: body.tokens, vocabSize: body.vocabSize };
}

async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON: show the start of the text
  }
  return text.slice(0, 200) || response.statusText;
}

function networkMessage(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}
