import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type ModelMessage } from 'ai';
import { ExternalModelError, toExternalModelError } from './errors.js';
import { streamCompletion } from './stream-completion.js';
import type {
  ChatMessage,
  Completion,
  CompletionRequest,
  ExternalModel,
  Mode,
  ProviderOptions,
} from './types.js';

/**
 * Connects to an OpenAI-compatible Chat Completions endpoint through the AI SDK. Each call has
 * its own `timeoutMs` deadline and is never retried: the caller falls back to the local model.
 */
export function createProvider(options: ProviderOptions): ExternalModel {
  const provider = createOpenAICompatible({
    name: 'external',
    includeUsage: true,
    baseURL: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    fetch: options.fetch,
  });
  const modelName = (mode?: Mode): string => (mode && options.modelByMode?.[mode]) || options.model;

  async function complete(request: CompletionRequest): Promise<Completion> {
    const model = modelName(request.mode);
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const abortSignal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
    try {
      const result = await generateText({
        model: provider.chatModel(model),
        system: request.system,
        messages: request.messages.map(toModelMessage),
        maxOutputTokens: request.maxTokens,
        temperature: request.temperature,
        maxRetries: 0,
        abortSignal,
      });
      const text = result.text.trim();
      if (text === '') throw new ExternalModelError('empty', 'The external model sent an empty answer');
      const reasoning = result.reasoningText?.trim();
      return {
        text,
        ...(reasoning ? { reasoning } : {}),
        ...(result.usage.outputTokens !== undefined ? { completionTokens: result.usage.outputTokens } : {}),
        ...(result.finishReason === 'length' ? { truncated: true } : {}),
        model,
      };
    } catch (error) {
      throw toExternalModelError(error, {
        timeoutMs: options.timeoutMs,
        timedOut: deadline.aborted,
        cancelled: request.signal?.aborted === true,
      });
    }
  }

  function stream(request: CompletionRequest, onDelta: (text: string) => void): Promise<Completion> {
    const model = modelName(request.mode);
    return streamCompletion(request, onDelta, {
      model: provider.chatModel(model),
      modelName: model,
      messages: request.messages.map(toModelMessage),
      timeoutMs: options.timeoutMs,
    });
  }

  return { vision: options.vision ?? false, modelName, complete, stream };
}

function toModelMessage(message: ChatMessage): ModelMessage {
  if (typeof message.content === 'string') return { role: message.role, content: message.content };
  if (message.role === 'assistant') {
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    return { role: 'assistant', content: text };
  }
  return {
    role: 'user',
    content: message.content.map((part) =>
      part.type === 'text'
        ? { type: 'text', text: part.text }
        : { type: 'image', image: part.data, mediaType: part.mediaType },
    ),
  };
}
