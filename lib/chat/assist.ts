import { logError } from '../log/index.js';
import { refText, type Source } from '../pipeline/index.js';
import {
  assistPrompt,
  completeOrStream,
  type ExternalModel,
  ExternalModelError,
  externalTokenBudget,
  type Mode,
  rethrowIfInterrupted,
} from '../provider/index.js';
import type { Turn } from '../sessions/index.js';
import type { ChatImage } from './image-input.js';

export interface AssistOutcome {
  /** The external model's answer; undefined when it was not asked or failed. */
  text?: string;
  /** The external model stopped at its token budget. */
  truncated?: boolean;
  reasoning?: string;
  /** One line for `thought`: which model answered, or why the local answer stands. */
  note: string;
}

/**
 * Asks the external model to write the answer from the conversation and the passages retrieved
 * for the message (numbered, to be cited as [n]), with the local draft and any image analysis. Any failure returns the reason instead of throwing, so the
 * caller falls back to the local draft.
 */
export async function assistWithExternal(
  externalModel: ExternalModel,
  input: {
    mode: Mode;
    message: string;
    history: Turn[];
    draft: string;
    /** Passages retrieved for the message: the external model's numbered context. */
    sources: Source[];
    chitChat: boolean;
    image?: ChatImage;
    /** The lines of text read in the image the conversation is about (data for the prompt). */
    imageText?: string[];
    maxTokens: number;
    temperature: number;
    /** Streams the answer as it arrives. */
    onDelta?: (text: string) => void;
  },
): Promise<AssistOutcome> {
  const attachImage = input.image !== undefined && (externalModel.vision || input.mode === 'apex');
  const prompt = assistPrompt({
    message: input.message,
    history: input.history,
    draft: input.draft,
    passages: input.sources.map((source) => ({ text: source.text, where: refText(source) })),
    chitChat: input.chitChat,
    maxTokens: input.maxTokens,
    analysis: input.image?.description,
    imageText: input.imageText,
    image: attachImage ? { data: input.image!.bytes, mediaType: input.image!.analysis.mimeType } : undefined,
  });
  try {
    const completion = await completeOrStream(
      externalModel,
      {
        mode: input.mode,
        ...prompt,
        maxTokens: externalTokenBudget(input.maxTokens),
        temperature: input.temperature,
      },
      input.onDelta,
    );
    return {
      text: completion.text,
      reasoning: completion.reasoning,
      truncated: completion.truncated,
      note: `answered by ${completion.model}`,
    };
  } catch (error) {
    rethrowIfInterrupted(error);
    const reason = error instanceof ExternalModelError ? error.reason : 'unknown';
    logError('external_model_failed', error, { reason });
    return { note: `external model unavailable (${reason}); local answer used` };
  }
}
