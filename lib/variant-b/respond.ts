import { emitInPieces, HttpError } from '../http/index.js';
import type { LanguageModel } from '../lm/index.js';
import { logError } from '../log/index.js';
import {
  assistPrompt,
  completeOrStream,
  type ExternalModel,
  ExternalModelError,
  rethrowIfInterrupted,
} from '../provider/index.js';
import { replyBudgets } from '../reply/index.js';
import type { Services } from '../services/index.js';
import {
  groundedAnswer,
  groundingPrompt,
  searchQueryFrom,
  sourceOf,
  type WikiSource,
} from '../wiki/index.js';
import { fitHistory } from './history.js';
import { deepThinkAnswer, type LocalAnswerInput, standardAnswer, thinkAnswer } from './local-reasoning.js';
import type { ReasoningMode, VariantBRequest } from './schema.js';

/** The body of a 200 from POST /api/api/chat. */
export interface VariantBResponse {
  response: string;
  mode: ReasoningMode;
  /** Completion tokens of the external model when it answered, else the local tokenizer's count of `response`. */
  tokens: number;
  /** www only: the article the answer is grounded in. */
  source?: WikiSource;
}

/** Candidate budgets of the reasoning modes. */
const modeBudgets = {
  standard: replyBudgets.instant,
  think: replyBudgets.expert,
  deep_think: replyBudgets.apex,
  www: replyBudgets.instant,
} as const;

/** What each mode asks of an external model, on top of the shared assist prompt. */
const modeInstructions: Record<Exclude<ReasoningMode, 'www'>, string> = {
  standard: 'Give a fast, direct answer.',
  think:
    'Reason step by step in short numbered steps (what is asked, what you know, what you considered), then give the answer on a final line starting with "Answer:".',
  deep_think:
    'Decompose the request into its parts, answer each, examine edge cases (ambiguity, missing information, unusual readings), then end with a line starting with "Conclusion:".',
};

/** Answers one Variant B message. Any failure of the local model is a 500 `inference_failed`. */
export async function respondVariantB(
  services: Services,
  request: VariantBRequest,
  onDelta?: (text: string) => void,
): Promise<VariantBResponse> {
  const model = await services.model.current().catch(() => services.model.cached());
  const countTokens = (text: string) => model.tokens(text).length;
  const { kept } = fitHistory(request.history, countTokens);
  const history = kept.map((turn) => turn.content);
  const input: LocalAnswerInput = {
    model,
    message: request.message,
    history,
    budget: modeBudgets[request.mode],
    random: services.random,
  };

  if (request.mode === 'www') return answerFromWikipedia(services, request, kept, countTokens, onDelta);

  let local: string;
  try {
    local =
      request.mode === 'think'
        ? thinkAnswer(input)
        : request.mode === 'deep_think'
          ? deepThinkAnswer(input)
          : standardAnswer(input);
  } catch (error) {
    logError('inference_failed', error);
    throw new HttpError('inference_failed', 'The model failed to produce an answer; please try again.');
  }
  if (services.externalModel) {
    const external = await askExternal(
      services.externalModel,
      request,
      kept,
      local,
      model,
      request.mode,
      onDelta,
    );
    if (external) return { response: external.text, mode: request.mode, tokens: external.tokens };
  }
  if (onDelta) emitInPieces(local, onDelta);
  return { response: local, mode: request.mode, tokens: countTokens(local) };
}

async function askExternal(
  externalModel: ExternalModel,
  request: VariantBRequest,
  history: VariantBRequest['history'],
  draft: string,
  model: LanguageModel,
  mode: Exclude<ReasoningMode, 'www'>,
  onDelta?: (text: string) => void,
): Promise<{ text: string; tokens: number } | undefined> {
  const prompt = assistPrompt({
    message: request.message,
    history,
    draft,
    keywords: [],
    maxHistory: history.length,
  });
  try {
    const completion = await completeOrStream(
      externalModel,
      {
        mode: mode === 'deep_think' ? 'apex' : mode === 'think' ? 'expert' : 'instant',
        system: `${prompt.system}\n\n${modeInstructions[mode]}`,
        messages: prompt.messages,
      },
      onDelta,
    );
    return {
      text: completion.text,
      tokens: completion.completionTokens ?? model.tokens(completion.text).length,
    };
  } catch (error) {
    rethrowIfInterrupted(error);
    logError('external_model_failed', error, {
      reason: error instanceof ExternalModelError ? error.reason : 'unknown',
    });
    return undefined;
  }
}

async function answerFromWikipedia(
  services: Services,
  request: VariantBRequest,
  history: VariantBRequest['history'],
  countTokens: (text: string) => number,
  onDelta?: (text: string) => void,
): Promise<VariantBResponse> {
  const lookup = await services.wikipedia.lookup(searchQueryFrom(request.message));
  const source = sourceOf(lookup) ?? undefined;
  const grounding = groundingPrompt(lookup, request.message);
  if (grounding && services.externalModel) {
    try {
      const completion = await completeOrStream(
        services.externalModel,
        {
          system: grounding.system,
          messages: [...history, { role: 'user', content: grounding.prompt }],
        },
        onDelta,
      );
      return {
        response: completion.text,
        mode: 'www',
        tokens: completion.completionTokens ?? countTokens(completion.text),
        ...(source ? { source } : {}),
      };
    } catch (error) {
      rethrowIfInterrupted(error);
      logError('external_model_failed', error);
    }
  }
  const response = groundedAnswer(lookup, request.message);
  if (onDelta) emitInPieces(response, onDelta);
  return { response, mode: 'www', tokens: countTokens(response), ...(source ? { source } : {}) };
}
