/** The three answer modes a client can ask for; each may map to its own model. */
export type Mode = 'instant' | 'expert' | 'apex';

/** An image attached to a user message, sent to the model as a data: URL. */
export interface ImageContent {
  type: 'image';
  data: Uint8Array;
  /** e.g. `image/png`, `image/jpeg`. */
  mediaType: string;
}

export interface TextContent {
  type: 'text';
  text: string;
}

export type ContentPart = TextContent | ImageContent;

/** One turn of the conversation. Images are only sent on user turns. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string | ContentPart[];
}

/** What `ExternalModel.complete` is asked to do. */
export interface CompletionRequest {
  mode?: Mode;
  system: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Cancels the call (the caller's own deadline, a closed client); combined with the timeout. */
  signal?: AbortSignal;
}

/** The answer of the external model. */
export interface Completion {
  text: string;
  /** The model's reasoning when the server returns it (`reasoning_content`, DeepSeek style). */
  reasoning?: string;
  completionTokens?: number;
  /** True when the model stopped at `maxTokens` (its finish reason was "length"). */
  truncated?: boolean;
  /** The model name the request was sent with. */
  model: string;
}

/** An OpenAI-compatible Chat Completions endpoint used to write or improve answers. */
export interface ExternalModel {
  /** Whether images may be attached (LLM_VISION); callers leave images out when false. */
  readonly vision: boolean;
  /** The model name used for `mode` (the mode's own model, else the default one). */
  modelName(mode?: Mode): string;
  /** One non-streaming completion. Throws `ExternalModelError` on any failure; never retries. */
  complete(request: CompletionRequest): Promise<Completion>;
  /**
   * One streaming completion: `onDelta` gets the text as it arrives, the promise the whole.
   * Same timeout (for the first piece, then between pieces) and no retries; a failure after the
   * first piece is an `ExternalModelError` with reason `interrupted`.
   */
  stream(request: CompletionRequest, onDelta: (text: string) => void): Promise<Completion>;
}

/** Options of `createProvider`; names follow the LLM_* environment variables. */
export interface ProviderOptions {
  /** The API root, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  modelByMode?: Partial<Record<Mode, string>>;
  timeoutMs: number;
  vision?: boolean;
  fetch?: typeof globalThis.fetch;
}
