import { HttpError } from '../http/errors.js';
import type { DeltaSink } from '../http/sse.js';
import { ExternalModelError } from './errors.js';
import type { Completion, CompletionRequest, ExternalModel } from './types.js';

/**
 * A streaming completion when the caller streams (`onDelta` given), else a plain one. A stream's
 * sink may carry the client's signal: when the client leaves, the external call stops too.
 */
export function completeOrStream(
  externalModel: ExternalModel,
  request: CompletionRequest,
  onDelta?: DeltaSink,
): Promise<Completion> {
  if (!onDelta) return externalModel.complete(request);
  const signals = [request.signal, onDelta.signal].filter((signal) => signal !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  return externalModel.stream(signal ? { ...request, signal } : request, onDelta);
}

/**
 * For a caller that falls back to the local answer: a stream cut after its first piece cannot
 * fall back (the client has part of the answer), so it becomes a 500 `inference_failed`, which
 * ends the stream with an error event.
 */
export function rethrowIfInterrupted(error: unknown): void {
  if (error instanceof ExternalModelError && error.reason === 'interrupted') {
    throw new HttpError('inference_failed', error.message);
  }
}
