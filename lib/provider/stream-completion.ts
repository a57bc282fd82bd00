import { type LanguageModel, type ModelMessage, streamText } from 'ai';
import { ExternalModelError, toExternalModelError } from './errors.js';
import type { Completion, CompletionRequest } from './types.js';

/** What a streaming call needs from the provider that makes it. */
export interface StreamCallOptions {
  model: LanguageModel;
  modelName: string;
  messages: ModelMessage[];
  /** Longest wait for the first piece, and then between two pieces. */
  timeoutMs: number;
}

/**
 * One streaming completion. Pieces reach `onDelta` as they arrive, trimmed so that together they
 * are exactly the completion's text. Any failure is an `ExternalModelError`; one after the first
 * piece has reason `interrupted`, so the caller knows the answer was cut rather than never begun.
 */
export async function streamCompletion(
  request: CompletionRequest,
  onDelta: (text: string) => void,
  options: StreamCallOptions,
): Promise<Completion> {
  const idle = new AbortController();
  let timer = setTimeout(() => idle.abort(), options.timeoutMs);
  const restartTimer = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), options.timeoutMs);
  };
  const abortSignal = request.signal ? AbortSignal.any([request.signal, idle.signal]) : idle.signal;
  const pieces = trimmedPieces(onDelta);
  let reasoning = '';
  let completionTokens: number | undefined;
  let truncated = false;
  try {
    const result = streamText({
      model: options.model,
      system: request.system,
      messages: options.messages,
      maxOutputTokens: request.maxTokens,
      temperature: request.temperature,
      maxRetries: 0,
      abortSignal,
      // Failures arrive as error parts below; the SDK's default would print them too.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      restartTimer();
      if (part.type === 'text-delta') pieces.push(part.text);
      else if (part.type === 'reasoning-delta') reasoning += part.text;
      else if (part.type === 'finish') {
        completionTokens = part.totalUsage.outputTokens;
        truncated = part.finishReason === 'length';
      } else if (part.type === 'error') throw part.error;
      else if (part.type === 'abort') throw new Error(part.reason ?? 'The stream was aborted');
    }
  } catch (error) {
    const failure = toExternalModelError(error, {
      timeoutMs: options.timeoutMs,
      timedOut: idle.signal.aborted,
      cancelled: request.signal?.aborted === true,
    });
    if (!pieces.started()) throw failure;
    throw new ExternalModelError(
      'interrupted',
      `The external model stopped mid-answer: ${failure.message}`,
      failure.status,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
  const text = pieces.text();
  if (text === '') throw new ExternalModelError('empty', 'The external model sent an empty answer');
  const thought = reasoning.trim();
  return {
    text,
    ...(thought ? { reasoning: thought } : {}),
    ...(completionTokens !== undefined ? { completionTokens } : {}),
    ...(truncated ? { truncated } : {}),
    model: options.modelName,
  };
}

/** Passes pieces on without leading or trailing whitespace of the whole; whitespace waits for what follows. */
function trimmedPieces(onDelta: (text: string) => void) {
  let sent = '';
  let held = '';
  return {
    push(piece: string) {
      const pending = held + piece;
      const body = sent === '' ? pending.trimStart() : pending;
      const trailing = /\s*$/.exec(body)![0];
      const out = body.slice(0, body.length - trailing.length);
      held = trailing;
      if (out === '') return;
      sent += out;
      onDelta(out);
    },
    started: () => sent !== '',
    text: () => sent,
  };
}
