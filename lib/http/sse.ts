import { logError } from '../log/index.js';
import { StoreUnavailableError } from '../store/unavailable.js';
import { HttpError, storeUnavailable } from './errors.js';
import { corsHeaders } from './responses.js';

/** Headers of every server-sent-events response: no caching, no buffering by proxies. */
export const eventStreamHeaders: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

/** Writes events into a streaming response; writes after the client left are dropped. */
export interface EventSink {
  /** Sends one event: `event: <name>` (when named) and `data: <data>` (objects as JSON). */
  send(data: unknown, event?: string): void;
  /** Ends the stream. */
  close(): void;
  /** Fires when the client disconnects. */
  readonly signal: AbortSignal;
}

/** One event in the text/event-stream format; multi-line data becomes several `data:` lines. */
export function formatEvent(data: unknown, event?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  const lines = text.split(/\r\n|\r|\n/).map((line) => `data: ${line}`);
  return `${event ? `event: ${event}\n` : ''}${lines.join('\n')}\n\n`;
}

/** Whether the request asks for a stream: `Accept: text/event-stream`. */
export function acceptsEventStream(request: Request): boolean {
  return (request.headers.get('accept') ?? '').toLowerCase().includes('text/event-stream');
}

/** A text/event-stream Response (a Web ReadableStream) and the sink that writes into it. */
export function createEventStream(headers: Record<string, string> = {}): {
  response: Response;
  sink: EventSink;
} {
  const encoder = new TextEncoder();
  const left = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    cancel() {
      open = false;
      left.abort();
    },
  });
  const sink: EventSink = {
    send(data, event) {
      if (open) controller.enqueue(encoder.encode(formatEvent(data, event)));
    },
    close() {
      if (!open) return;
      open = false;
      controller.close();
    },
    signal: left.signal,
  };
  const response = new Response(body, {
    status: 200,
    headers: { ...corsHeaders, ...eventStreamHeaders, ...headers },
  });
  return { response, sink };
}

/**
 * Where a producer sends pieces. `signal` fires when the client is gone (the request was
 * aborted or the stream cancelled), so whatever writes the pieces (an external model) can stop.
 */
export type DeltaSink = ((text: string) => void) & { readonly signal?: AbortSignal };

/** What `streamOnceStarted` does with the producer's result or failure. */
export interface StreamPlan<T> {
  /** Produces the result, calling `emit` for each piece as it is known. */
  produce(emit: DeltaSink): Promise<T>;
  /** Writes one piece to the stream. */
  piece(sink: EventSink, text: string): void;
  /** Writes the closing events for the result. */
  finish(sink: EventSink, result: T): void;
  /** Writes the error event of a failure after the stream started. */
  fail(sink: EventSink, error: unknown): void;
  headers?: Record<string, string>;
  /** Headers learnt while producing (before the first piece), added as the response leaves. */
  lateHeaders?: () => Record<string, string>;
  /** The request's own signal (fires when the client disconnects). */
  signal?: AbortSignal;
}

/**
 * Runs a producer and streams its pieces. The Response is returned as soon as the first piece
 * exists (or the producer finishes without one), so a failure before that (a limit, a store
 * outage, bad input) is thrown to the caller and becomes an ordinary JSON error with its status;
 * a failure after it ends the stream through `fail`.
 */
export async function streamOnceStarted<T>(plan: StreamPlan<T>): Promise<Response> {
  const { response, sink } = createEventStream(plan.headers);
  let markStarted!: () => void;
  const started = new Promise<'started'>((resolve) => {
    markStarted = () => resolve('started');
  });
  const gone = plan.signal ? AbortSignal.any([plan.signal, sink.signal]) : sink.signal;
  const emit: DeltaSink = Object.assign(
    (text: string) => {
      if (text === '') return;
      markStarted();
      plan.piece(sink, text);
    },
    { signal: gone },
  );
  const outcome = plan
    .produce(emit)
    .then((result) => ({ ok: true as const, result }))
    .catch((error: unknown) => ({ ok: false as const, error }));

  const first = await Promise.race([started, outcome]);
  if (first !== 'started' && !first.ok) throw first.error;
  for (const [name, value] of Object.entries(plan.lateHeaders?.() ?? {})) response.headers.set(name, value);
  void outcome.then((settled) => {
    try {
      if (settled.ok) plan.finish(sink, settled.result);
      else plan.fail(sink, settled.error);
    } catch (error) {
      plan.fail(sink, error);
    } finally {
      sink.close();
    }
  });
  return response;
}

/** A reply's text in word-sized pieces (each word with the spaces after it); joined, the text. */
export function wordPieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** Sends a text decided all at once (a local reply) as word-sized deltas. */
export function emitInPieces(text: string, onDelta: (text: string) => void): void {
  for (const piece of wordPieces(text)) onDelta(piece);
}

/**
 * The stream of our own chat endpoints: `event: delta` `{ text }` per piece, then one
 * `event: done` with the full response body, or `event: error` `{ error, code }` on a failure
 * after the first piece.
 */
export function streamReply<T>(
  produce: (onDelta: DeltaSink) => Promise<T>,
  options: {
    headers?: Record<string, string>;
    lateHeaders?: () => Record<string, string>;
    body?: (result: T) => unknown;
    signal?: AbortSignal;
  } = {},
): Promise<Response> {
  return streamOnceStarted({
    produce,
    piece: (sink, text) => sink.send({ text }, 'delta'),
    finish: (sink, result) => sink.send(options.body ? options.body(result) : result, 'done'),
    fail: (sink, error) => sink.send(streamErrorBody(error), 'error'),
    headers: options.headers,
    lateHeaders: options.lateHeaders,
    signal: options.signal,
  });
}

function streamErrorBody(error: unknown): Record<string, unknown> {
  if (error instanceof HttpError) return error.toBody();
  if (error instanceof StoreUnavailableError) {
    logError('store_unavailable', error);
    return storeUnavailable().toBody();
  }
  logError('stream_failed', error);
  return {
    error: 'Something went wrong on our side while streaming; please try again.',
    code: 'internal_error',
  };
}
