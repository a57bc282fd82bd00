import { HttpError } from '../http/errors.js';
import { ExternalModelError } from './errors.js';
import type { Completion, CompletionRequest, ExternalModel } from './types.js';

/** A streaming completion when the caller streams (`onDelta` given), else a plain one. */
export function completeOrStream(
  externalModel: ExternalModel,
  request: CompletionRequest,
  onDelta?: (text: string) => void,
): Promise<Completion> {
  return onDelta ? externalModel.stream(request, onDelta) : externalModel.complete(request);
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
