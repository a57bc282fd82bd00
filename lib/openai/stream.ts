import { type DeltaSink, HttpError, storeUnavailable, streamOnceStarted } from '../http/index.js';
import { logError } from '../log/index.js';
import { StoreUnavailableError } from '../store/index.js';
import {
  type CompletionIdentity,
  chunkObject,
  type FinishReason,
  type Usage,
  usageChunk,
} from './completion.js';
import { openAIError } from './errors.js';

/** How a finished answer ends its stream. */
export interface StreamEnding {
  finishReason: FinishReason;
  usage: Usage;
  sources: unknown[];
}

/**
 * A Chat Completions stream: `data: <chunk>` events, the first with the assistant role, then the
 * content pieces, a last chunk with `finish_reason` (and this service's `sources`), the usage
 * chunk when asked for, and `data: [DONE]`. A failure after the first piece sends
 * `data: { "error": ... }` and closes without [DONE]; one before it is an ordinary JSON error.
 */
export function streamChatCompletion<T>(
  identity: CompletionIdentity,
  options: { includeUsage: boolean; lateHeaders?: () => Record<string, string>; signal?: AbortSignal },
  produce: (onDelta: DeltaSink) => Promise<T>,
  ending: (result: T) => StreamEnding,
): Promise<Response> {
  let opened = false;
  const open = (send: (data: unknown) => void) => {
    if (opened) return;
    opened = true;
    send(chunkObject(identity, { role: 'assistant', content: '' }));
  };
  return streamOnceStarted({
    produce,
    piece(sink, text) {
      open((data) => sink.send(data));
      sink.send(chunkObject(identity, { content: text }));
    },
    finish(sink, result) {
      open((data) => sink.send(data));
      const end = ending(result);
      sink.send({ ...chunkObject(identity, {}, end.finishReason), sources: end.sources });
      if (options.includeUsage) sink.send(usageChunk(identity, end.usage));
      sink.send('[DONE]');
    },
    fail(sink, error) {
      sink.send({ error: openAIError(asHttpError(error)) });
    },
    lateHeaders: options.lateHeaders,
    signal: options.signal,
  });
}

function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof StoreUnavailableError) {
    logError('store_unavailable', error);
    return storeUnavailable();
  }
  logError('stream_failed', error);
  return new HttpError(
    'internal_error',
    'Something went wrong on our side while streaming; please try again.',
  );
}
