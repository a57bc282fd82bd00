import { type DeltaSink, emitInPieces, HttpError } from '../http/index.js';
import { logError } from '../log/index.js';
import {
  type ArticleEvidence,
  assist,
  type Confidence,
  evidenceBudgets,
  replyFromArticle,
  type Source,
} from '../pipeline/index.js';
import { replyBudgets } from '../reply/index.js';
import type { Services } from '../services/index.js';
import { countTokens, limitStream, limitTokens } from '../text/index.js';
import { searchQueryFrom, sourceOf, type WikiSource } from '../wiki/index.js';
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
  const countTokens = (text: string) => knowledge.model.tokens(text).length;
  const { kept } = fitHistory(request.history, countTokens);

  if (request.mode === 'www') {
    // The encyclopedia's article for the question is the evidence; then the same last stage.
    const lookup = await services.wikipedia.lookup(searchQueryFrom(request.message));
    return finish(services, request, kept, replyFromArticle(lookup, request.message), undefined, onDelta);
  }

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
  return finish(services, request, kept, local, modeInstructions[request.mode], onDelta);
}

/**
 * The pipeline's last stage for Variant B: the external model, when configured, writes the reply
 * grounded in the evidence the local stages chose (the trained passages, or the www mode's
 * article), with the mode's instruction; otherwise, or when it fails, the local reply stands.
 * `tokens` is counted once the limit has been applied (respondVariantB).
 */
async function finish(
  services: Services,
  request: VariantBRequest,
  history: VariantBRequest['history'],
  local: LocalAnswer | ArticleEvidence,
  instruction: string | undefined,
  onDelta?: DeltaSink,
): Promise<VariantBResponse> {
  const article = 'article' in local ? sourceOf(local.article) : null;
  // The spec's fields first, in its order (response, mode, tokens), then this service's own.
  const reply = (response: string, sources: Source[]): VariantBResponse => ({
    response,
    mode: request.mode,
    tokens: 0,
    ...(article ? { source: article } : {}),
    sources,
    confidence: local.confidence,
    ...(!('article' in local) && local.thought ? { thought: local.thought } : {}),
  });
  if (services.externalModel) {
    const assisted = await assist(local, {
      model: services.externalModel,
      mode: request.mode === 'deep_think' ? 'apex' : request.mode === 'think' ? 'expert' : 'instant',
      message: request.message,
      history,
      maxHistory: history.length,
      maxTokens: request.maxTokens,
      instruction,
      onDelta,
    });
    if (assisted.text) return reply(assisted.text, assisted.sources);
  }
  if (onDelta) emitInPieces(local.text, onDelta);
  return reply(local.text, local.sources);
}
