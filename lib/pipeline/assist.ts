import type { DeltaSink } from '../http/sse.js';
import { logError } from '../log/index.js';
import {
  assistPrompt,
  type ChatMessage,
  completeOrStream,
  type ExternalModel,
  ExternalModelError,
  externalTokenBudget,
  type Mode,
  rethrowIfInterrupted,
} from '../provider/index.js';
import type { Turn } from '../sessions/index.js';
import { groundingPrompt, type WikiLookup } from '../wiki/index.js';
import { refText } from './cite.js';
import type { Confidence, Source } from './types.js';

/** What the local stages produced: the draft an external model improves, and its evidence. */
export interface LocalDraft {
  kind: string;
  text: string;
  /** The passages the local stages found (cited first): the external model's numbered context. */
  context: Source[];
  confidence: Confidence;
  /** Evidence from an encyclopedia article (the www mode) instead of the trained text. */
  article?: WikiLookup;
}

/** How a way in asks the external model to write the reply. */
export interface Assistance {
  model: ExternalModel;
  mode: Mode;
  message: string;
  /** Earlier turns, oldest first, without the message. */
  history: readonly Turn[];
  /** How many earlier turns to send (default: the assist prompt's). */
  maxHistory?: number;
  maxTokens: number;
  temperature?: number;
  /** What the way in asks on top of the grounding (Variant B's think modes: show the steps). */
  instruction?: string;
  /** An image sent with the message, attached when the model may see images. */
  image?: { data: Uint8Array; mediaType: string };
  /** What the local analysis says of the image. */
  imageAnalysis?: string;
  /** Lines of text read in the image the conversation is about. */
  imageText?: readonly string[];
  /** Streams the reply as it arrives. */
  onDelta?: DeltaSink;
}

/** The assist stage's outcome: the external model's reply, or why the local one stands. */
export interface Assisted {
  /** The external model's reply; undefined when it failed (the local reply stands). */
  text?: string;
  /** The passages its [n] citations number: the local context. */
  sources: Source[];
  /** The model stopped at its token budget. */
  truncated?: boolean;
  reasoning?: string;
  /** One line for `thought`: which model answered, or why the local reply stands. */
  note: string;
}

/**
 * The last stage, when a way in has an external model and its mode asks for one: the model writes
 * the reply grounded the same way as the local one, in the evidence the earlier stages chose (the
 * trained passages, cited by number, or the article's extract), with the local reply as a draft.
 * It never adds evidence of its own and never changes the confidence, which is the evidence's.
 * A failure returns the reason, and the local reply stands; a stream cut midway cannot fall back.
 */
export async function assist(local: LocalDraft, assistance: Assistance): Promise<Assisted> {
  const prompt = promptFor(local, assistance);
  if (!prompt) return { sources: local.context, note: 'no article to ground an external model in' };
  try {
    const completion = await completeOrStream(
      assistance.model,
      {
        mode: assistance.mode,
        ...prompt,
        maxTokens: externalTokenBudget(assistance.maxTokens),
        ...(assistance.temperature !== undefined ? { temperature: assistance.temperature } : {}),
      },
      assistance.onDelta,
    );
    return {
      text: completion.text,
      sources: local.context,
      reasoning: completion.reasoning,
      truncated: completion.truncated,
      note: `answered by ${completion.model}`,
    };
  } catch (error) {
    rethrowIfInterrupted(error);
    const reason = error instanceof ExternalModelError ? error.reason : 'unknown';
    logError('external_model_failed', error, { reason });
    return { sources: local.context, note: `external model unavailable (${reason}); local answer used` };
  }
}

function promptFor(
  local: LocalDraft,
  assistance: Assistance,
): { system: string; messages: ChatMessage[] } | null {
  if (local.article) {
    const grounding = groundingPrompt(local.article, assistance.message);
    if (!grounding) return null;
    const history = assistance.history.map((turn) => ({ role: turn.role, content: turn.content }));
    return { system: grounding.system, messages: [...history, { role: 'user', content: grounding.prompt }] };
  }
  const prompt = assistPrompt({
    message: assistance.message,
    history: [...assistance.history],
    maxHistory: assistance.maxHistory,
    draft: local.text,
    passages: local.context.map((source) => ({ text: source.text, where: refText(source) })),
    chitChat: local.kind === 'social' || local.kind === 'generated',
    evidence: local.confidence.level,
    maxTokens: assistance.maxTokens,
    analysis: assistance.imageAnalysis,
    imageText: assistance.imageText ? [...assistance.imageText] : undefined,
    image: assistance.image,
  });
  return assistance.instruction
    ? { system: `${prompt.system}\n\n${assistance.instruction}`, messages: prompt.messages }
    : prompt;
}
