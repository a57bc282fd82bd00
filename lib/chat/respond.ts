import { emitInPieces, HttpError } from '../http/index.js';
import {
  assist,
  type Confidence,
  evidenceBudgets,
  imageTextOf,
  MAX_REMEMBERED_LINES,
  replyTo,
  type Source,
} from '../pipeline/index.js';
import { replyBudgets } from '../reply/index.js';
import type { Services } from '../services/index.js';
import { beginSessionMessage, recordExchange, type Turn } from '../sessions/index.js';
import type { StoreBatch } from '../store/index.js';
import { limitStream, limitTokens } from '../text/index.js';
import type { ChatImage } from './image-input.js';
import type { ChatRequest, ChatResponse } from './schema.js';

export interface ChatOutcome {
  body: ChatResponse;
  limit: number;
  remaining: number;
  /** Whether the reply was cut to fit maxTokens. */
  cut: boolean;
}

/**
 * One Variant A message: counts it against the session's allowance (with the history and the
 * corpus position in the same round trip), brings the model up to date, writes the local reply,
 * lets the external model improve it when the mode asks for it, and records the exchange.
 */
export async function respondToChat(
  services: Services,
  request: ChatRequest,
  context: {
    limit: number;
    image?: ChatImage;
    /** Streams the reply: its text in pieces as soon as it is known. */
    onDelta?: (text: string) => void;
    /** The conversation so far when the caller keeps it (stateless clients); else the session's. */
    history?: Turn[];
    /** Told the allowance once the message is counted (a stream's headers need it early). */
    onSession?: (limit: number, remaining: number) => void;
    /** Adds writes (the question log's, lib/questions) to the round trip that records the exchange. */
    record?: (
      batch: StoreBatch,
      reply: { response: string; sources: Source[]; confidence: Confidence },
    ) => void;
  },
): Promise<ChatOutcome> {
  const { store, config, model: keeper, externalModel } = services;
  const session = await beginSessionMessage(store, request.sessionId, {
    limit: context.limit,
    ttlSeconds: config.SESSION_TTL_SECONDS,
    also: (batch) => keeper.readPosition(batch),
  });
  context.onSession?.(session.limit, session.remaining);
  const knowledge = await keeper
    .knowledge(keeper.positionOf(session.also))
    .catch(() => keeper.cachedKnowledge());
  const { model } = knowledge;

  const history = context.history ?? session.history;
  const seen = context.image
    ? { id: context.image.id, lines: context.image.analysis.text.slice(0, MAX_REMEMBERED_LINES) }
    : undefined;
  const imageText = imageTextOf(seen, history);
  let reply: ReturnType<typeof replyTo>;
  try {
    reply = replyTo(knowledge, {
      message: request.message,
      history,
      evidence: evidenceBudgets[request.modelMode],
      chitChat: replyBudgets[request.modelMode],
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      random: services.random,
      relatedWords: config.RELATED_WORDS,
      imageText,
      image: context.image && { description: context.image.description, ...context.image.analysis },
      unknownReply: config.UNKNOWN_REPLY,
    });
  } catch (error) {
    throw new HttpError(
      'inference_failed',
      `The local model could not write a reply: ${(error as Error).message}`,
    );
  }
  const thought = [reply.thought];
  if (context.image) thought.unshift(`image: ${context.image.summary}`);

  // The limit applies last, to whatever the reply became; a stream never sends more than it.
  const limitedDeltas = context.onDelta && limitStream(request.maxTokens, context.onDelta);
  let response = reply.text;
  let sources = reply.sources;
  let usedExternal = false;
  let externalCut = false;
  const wantsExternal = request.modelMode === 'apex' || (context.image !== undefined && config.LLM_VISION);
  if (!request.raw && externalModel && wantsExternal) {
    const image = context.image;
    const assisted = await assist(reply, {
      model: externalModel,
      mode: request.modelMode,
      message: request.message,
      history,
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      image:
        image && (externalModel.vision || request.modelMode === 'apex')
          ? { data: image.bytes, mediaType: image.analysis.mimeType }
          : undefined,
      imageAnalysis: image?.description,
      imageText: imageText?.lines,
      onDelta: limitedDeltas?.sink,
    });
    thought.push(assisted.note);
    if (assisted.reasoning) thought.push(`reasoning: ${assisted.reasoning}`);
    if (assisted.text) {
      response = assisted.text;
      sources = assisted.sources;
      usedExternal = true;
      externalCut = assisted.truncated === true;
    }
  }

  const limited =
    limitedDeltas && usedExternal ? limitedDeltas.finish(response) : limitTokens(response, request.maxTokens);
  response = limited.text;
  if (context.onDelta && !usedExternal) emitInPieces(response, context.onDelta);

  const turns: Turn[] = [
    { role: 'user', content: request.message, ...(seen && seen.lines.length > 0 ? { image: seen } : {}) },
    { role: 'assistant', content: response },
  ];
  await recordExchange(store, request.sessionId, turns, {
    ttlSeconds: config.SESSION_TTL_SECONDS,
    firstMessage: session.used === 1,
    also:
      context.record &&
      ((batch) => context.record!(batch, { response, sources, confidence: reply.confidence })),
  });
  const thoughtText = thought.filter(Boolean).join('\n');
  return {
    body: {
      response,
      ...(thoughtText ? { thought: thoughtText } : {}),
      vocabSize: model.vocabSize,
      usedExternal,
      sources,
      confidence: reply.confidence,
    },
    limit: session.limit,
    remaining: session.remaining,
    cut: limited.cut || externalCut,
  };
}
