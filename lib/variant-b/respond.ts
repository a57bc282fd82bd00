import { type DeltaSink, emitInPieces, HttpError } from '../http/index.js';
import type { LanguageModel } from '../lm/index.js';
import { logError } from '../log/index.js';
import { type Confidence, evidenceBudgets, refText, type Source } from '../pipeline/index.js';
import {
  assistPrompt,
  completeOrStream,
  type ExternalModel,
  ExternalModelError,
  externalTokenBudget,
  rethrowIfInterrupted,
} from '../provider/index.js';
import { replyBudgets } from '../reply/index.js';
import type { Services } from '../services/index.js';
import { countTokens, limitStream, limitTokens } from '../text/index.js';
import {
  groundedAnswer,
  groundingPrompt,
  searchQueryFrom,
  sourceOf,
  type WikiSource,
} from '../wiki/index.js';
import { fitHistory } from './history.js';
import {
  deepThinkAnswer,
  type LocalAnswer,
  type LocalAnswerInput,
  standardAnswer,
  thinkAnswer,
} from './local-reasoning.js';
import type { ReasoningMode, VariantBRequest } from './schema.js';

/** The body of a 200 from POST /api/api/chat. */
export interface VariantBResponse {
  response: string;
  mode: ReasoningMode;
  /** The tokens of `response` as `countTokens` counts them (words and punctuation marks), at most `maxTokens`. */
  tokens: number;
  /** www only: the article the answer is grounded in. */
  source?: WikiSource;
  /** The passages the reply used (www: the article); empty when it used none. */
  sources: Source[];
  /** How sure the reply is, from the evidence (beside the spec's fields). */
  confidence: Confidence;
  /** How the message was read against the conversation, when it leaned on it ("read as: ..."). */
  thought?: string;
}

/** Evidence and chit-chat budgets of the reasoning modes: deeper modes gather more evidence. */
const modeBudgets = {
  standard: { evidence: evidenceBudgets.expert, chitChat: replyBudgets.instant },
  think: { evidence: evidenceBudgets.expert, chitChat: replyBudgets.expert },
  deep_think: { evidence: evidenceBudgets.apex, chitChat: replyBudgets.expert },
} as const;

/** What each mode asks of an external model, on top of the shared assist prompt. */
const modeInstructions: Record<Exclude<ReasoningMode, 'www'>, string> = {
  standard: 'Give a fast, direct answer.',
  think:
    'Reason step by step in short numbered steps (what is asked, what you know, what you considered), then give the answer on a final line starting with "Answer:".',
  deep_think:
    'Decompose the request into its parts, answer each, examine edge cases (ambiguity, missing information, unusual readings), then end with a line starting with "Conclusion:".',
};

/**
 * Answers one Variant B message within `maxTokens`: the limit applies last, to whatever the answer
 * became, and a stream never sends more than it. Any failure of the local model is a 500
 * `inference_failed`.
 */
export async function respondVariantB(
  services: Services,
  request: VariantBRequest,
  onDelta?: DeltaSink,
): Promise<VariantBResponse> {
  const stream = onDelta && limitStream(request.maxTokens, onDelta);
  const answer = await answerVariantB(services, request, stream?.sink);
  const limited = stream ? stream.finish(answer.response) : limitTokens(answer.response, request.maxTokens);
  return { ...answer, response: limited.text, tokens: countTokens(limited.text) };
}

async function answerVariantB(
  services: Services,
  request: VariantBRequest,
  onDelta?: DeltaSink,
): Promise<VariantBResponse> {
  const knowledge = await services.model.knowledge().catch(() => services.model.cachedKnowledge());
  const { model } = knowledge;
  const countTokens = (text: string) => model.tokens(text).length;
  const { kept } = fitHistory(request.history, countTokens);

  if (request.mode === 'www') return answerFromWikipedia(services, request, kept, countTokens, onDelta);

  const input: LocalAnswerInput = {
    knowledge,
    message: request.message,
    history: kept,
    ...modeBudgets[request.mode],
    random: services.random,
    relatedWords: services.config.RELATED_WORDS,
    maxTokens: request.maxTokens,
  };
  let local: LocalAnswer;
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
    if (external) {
      return {
        response: external.text,
        mode: request.mode,
        tokens: external.tokens,
        sources: local.context,
        confidence: local.confidence,
        ...(local.thought ? { thought: local.thought } : {}),
      };
    }
  }
  if (onDelta) emitInPieces(local.text, onDelta);
  return {
    response: local.text,
    mode: request.mode,
    tokens: countTokens(local.text),
    sources: local.sources,
    confidence: local.confidence,
    ...(local.thought ? { thought: local.thought } : {}),
  };
}

async function askExternal(
  externalModel: ExternalModel,
  request: VariantBRequest,
  history: VariantBRequest['history'],
  local: LocalAnswer,
  model: LanguageModel,
  mode: Exclude<ReasoningMode, 'www'>,
  onDelta?: (text: string) => void,
): Promise<{ text: string; tokens: number } | undefined> {
  const prompt = assistPrompt({
    message: request.message,
    history,
    draft: local.text,
    passages: local.context.map((source) => ({ text: source.text, where: refText(source) })),
    maxHistory: history.length,
    maxTokens: request.maxTokens,
  });
  try {
    const completion = await completeOrStream(
      externalModel,
      {
        mode: mode === 'deep_think' ? 'apex' : mode === 'think' ? 'expert' : 'instant',
        system: `${prompt.system}\n\n${modeInstructions[mode]}`,
        messages: prompt.messages,
        maxTokens: externalTokenBudget(request.maxTokens),
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
  const sources: Source[] =
    lookup.kind === 'found'
      ? [{ text: lookup.extract, score: 1, ref: { title: lookup.title, url: lookup.url } }]
      : [];
  const grounding = groundingPrompt(lookup, request.message);
  if (grounding && services.externalModel) {
    try {
      const completion = await completeOrStream(
        services.externalModel,
        {
          system: grounding.system,
          messages: [...history, { role: 'user', content: grounding.prompt }],
          maxTokens: externalTokenBudget(request.maxTokens),
        },
        onDelta,
      );
      return {
        response: completion.text,
        mode: 'www',
        tokens: completion.completionTokens ?? countTokens(completion.text),
        ...(source ? { source } : {}),
        sources,
        confidence: wikiConfidence(lookup.kind === 'found'),
      };
    } catch (error) {
      rethrowIfInterrupted(error);
      logError('external_model_failed', error);
    }
  }
  const response = groundedAnswer(lookup, request.message);
  if (onDelta) emitInPieces(response, onDelta);
  return {
    response,
    mode: 'www',
    tokens: countTokens(response),
    ...(source ? { source } : {}),
    sources,
    confidence: wikiConfidence(lookup.kind === 'found'),
  };
}

/** www: an article found is the evidence the reply stands on; none found is "I don't know". */
function wikiConfidence(found: boolean): Confidence {
  return found ? { score: 1, level: 'answer' } : { score: 0, level: 'none' };
}
