import { randomUUID } from 'node:crypto';
import {
  type DeltaSink,
  type EventSink,
  HttpError,
  storeUnavailable,
  streamOnceStarted,
} from '../http/index.js';
import { logError } from '../log/index.js';
import type { Source } from '../pipeline/index.js';
import { StoreUnavailableError } from '../store/index.js';
import { sourceDocument } from './sources.js';

/** The header by which the AI SDK's clients know a UI message stream. */
export const UI_MESSAGE_STREAM_HEADERS: Record<string, string> = {
  'x-vercel-ai-ui-message-stream': 'v1',
  'Access-Control-Expose-Headers':
    'x-vercel-ai-ui-message-stream, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Session-Limit, X-Session-Remaining',
};

/** How a finished reply ends its stream. */
export interface UIStreamEnding {
  sources: Source[];
  finishReason: 'stop' | 'length';
  /** Sent as the message's metadata with `finish` (thought, usedExternal, vocabSize ...). */
  metadata: Record<string, unknown>;
}

/**
 * The AI SDK's UI message stream (`data: <chunk>` server-sent events): `start`, one text part
 * (`text-start`, a `text-delta` per piece, `text-end` with the citations), one `source-document`
 * per source, `finish`, then `data: [DONE]`. A failure after the first piece sends an `error`
 * chunk; one before it is thrown to the caller and becomes an ordinary JSON error.
 */
export function streamUIMessage<T>(
  options: { lateHeaders?: () => Record<string, string>; signal?: AbortSignal },
  produce: (onDelta: DeltaSink) => Promise<T>,
  ending: (result: T) => UIStreamEnding,
): Promise<Response> {
  const messageId = `msg-${randomUUID()}`;
  const textId = `text-${randomUUID()}`;
  let opened = false;
  const open = (sink: EventSink) => {
    if (opened) return;
    opened = true;
    sink.send({ type: 'start', messageId });
    sink.send({ type: 'text-start', id: textId });
  };
  return streamOnceStarted({
    produce,
    piece(sink, text) {
      open(sink);
      sink.send({ type: 'text-delta', id: textId, delta: text });
    },
    finish(sink, result) {
      open(sink);
      const end = ending(result);
      const documents = end.sources.map((source, index) => sourceDocument(source, index + 1));
      const citations = documents.map((document, index) => ({
        source: {
          type: 'source',
          sourceType: 'document',
          id: document.sourceId,
          mediaType: document.mediaType,
          title: document.title,
          ...(document.filename ? { filename: document.filename } : {}),
        },
        citedText: end.sources[index]!.text,
      }));
      sink.send({ type: 'text-end', id: textId, ...(citations.length > 0 ? { citations } : {}) });
      for (const document of documents) sink.send({ type: 'source-document', ...document });
      sink.send({ type: 'finish', finishReason: end.finishReason, messageMetadata: end.metadata });
      sink.send('[DONE]');
    },
    fail(sink, error) {
      sink.send({ type: 'error', errorText: errorText(error) });
      sink.send('[DONE]');
    },
    headers: UI_MESSAGE_STREAM_HEADERS,
    lateHeaders: options.lateHeaders,
    signal: options.signal,
  });
}

function errorText(error: unknown): string {
  if (error instanceof HttpError) return error.message;
  if (error instanceof StoreUnavailableError) {
    logError('store_unavailable', error);
    return storeUnavailable().message;
  }
  logError('stream_failed', error);
  return 'Something went wrong on our side while streaming; please try again.';
}
