import { APICallError, InvalidResponseDataError } from 'ai';

/** Why a call to the external model failed. */
export type ExternalModelFailure =
  | 'timeout'
  | 'aborted'
  | 'http'
  | 'network'
  | 'malformed'
  | 'empty'
  | 'interrupted'
  | 'unknown';

/**
 * Thrown by `ExternalModel.complete`. The caller falls back to the local model and can say why:
 * `reason` is machine-readable, `status` is set for `http`, the message is readable.
 */
export class ExternalModelError extends Error {
  constructor(
    readonly reason: ExternalModelFailure,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ExternalModelError';
  }
}

/** What was known when the call failed: which of the two signals (if any) fired. */
export interface FailureContext {
  timeoutMs: number;
  timedOut: boolean;
  cancelled: boolean;
}

/** Turns whatever the AI SDK (or fetch) threw into an `ExternalModelError`. */
export function toExternalModelError(error: unknown, context: FailureContext): ExternalModelError {
  if (error instanceof ExternalModelError) return error;
  const cause = { cause: error };
  if (context.cancelled) {
    return new ExternalModelError(
      'aborted',
      'The call to the external model was cancelled',
      undefined,
      cause,
    );
  }
  if (context.timedOut) {
    const message = `The external model did not answer within ${context.timeoutMs} ms`;
    return new ExternalModelError('timeout', message, undefined, cause);
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      return new ExternalModelError(
        'network',
        `Could not reach the external model: ${error.message}`,
        undefined,
        cause,
      );
    }
    if (status >= 200 && status < 300) {
      return new ExternalModelError(
        'malformed',
        'The external model sent a response that is not valid Chat Completions JSON',
        undefined,
        cause,
      );
    }
    return new ExternalModelError(
      'http',
      `The external model answered HTTP ${status}: ${error.message}`,
      status,
      cause,
    );
  }
  if (InvalidResponseDataError.isInstance(error)) {
    return new ExternalModelError(
      'empty',
      `The external model sent no answer: ${error.message}`,
      undefined,
      cause,
    );
  }
  if (error instanceof TypeError) {
    return new ExternalModelError(
      'network',
      `Could not reach the external model: ${error.message}`,
      undefined,
      cause,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ExternalModelError('unknown', `The external model call failed: ${message}`, undefined, cause);
}
