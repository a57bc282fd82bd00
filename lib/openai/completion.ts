import { randomUUID } from 'node:crypto';

/** Token counts of one completion, as `countTokens` counts them (words and punctuation marks). */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export type FinishReason = 'stop' | 'length';

/** What every object of one completion shares. */
export interface CompletionIdentity {
  id: string;
  created: number;
  model: string;
}

/** A fresh `chatcmpl-...` identity for a completion made now. */
export function newCompletion(model: string, nowMs: number): CompletionIdentity {
  return { id: `chatcmpl-${randomUUID().replaceAll('-', '')}`, created: Math.floor(nowMs / 1000), model };
}

/** The `chat.completion` object of a whole answer; `sources` is this service's extension. */
export function completionObject(
  identity: CompletionIdentity,
  answer: {
    text: string;
    finishReason: FinishReason;
    usage: Usage;
    sources: unknown[];
    confidence?: unknown;
  },
) {
  return {
    ...identity,
    object: 'chat.completion' as const,
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content: answer.text, refusal: null },
        logprobs: null,
        finish_reason: answer.finishReason,
      },
    ],
    usage: answer.usage,
    sources: answer.sources,
    ...(answer.confidence ? { confidence: answer.confidence } : {}),
  };
}

/** One `chat.completion.chunk` of a stream. */
export function chunkObject(
  identity: CompletionIdentity,
  delta: { role?: 'assistant'; content?: string },
  finishReason: FinishReason | null = null,
) {
  return {
    ...identity,
    object: 'chat.completion.chunk' as const,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/** The usage-only chunk that `stream_options.include_usage` asks for: no choices. */
export function usageChunk(identity: CompletionIdentity, usage: Usage) {
  return { ...identity, object: 'chat.completion.chunk' as const, choices: [], usage };
}

/** Prompt and completion token counts. */
export function usageOf(promptTokens: number, completionTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}
