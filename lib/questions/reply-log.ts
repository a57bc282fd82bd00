import type { Source } from '../answer/index.js';
import { type Citation, withCitations } from '../citations/index.js';
import { logError } from '../log/index.js';
import type { Services } from '../services/index.js';
import { levelOf, type ReplyAnswerSignals } from './level.js';
import { createQuestionLog, type QuestionLog } from './log.js';

/** The question log of a deployment's services (QUESTION_LOG, QUESTION_LOG_DAYS). */
export function questionLogOf(services: Pick<Services, 'store' | 'config' | 'now'>): QuestionLog {
  return createQuestionLog(services.store, {
    enabled: services.config.QUESTION_LOG !== 'off',
    days: services.config.QUESTION_LOG_DAYS,
    now: services.now,
  });
}

/** A reply as a way in has it once made: the visitor's question, the text and sources sent. */
export interface MadeReply extends ReplyAnswerSignals {
  question: string;
  response: string;
  sources: readonly Source[];
}

/** The reply of a Variant A outcome (POST /api/chat, /api/ui/chat, /api/v1) to the visitor's question. */
export function madeReplyOf(
  question: string,
  outcome: ReplyAnswerSignals & {
    body: { response: string; sources: readonly Source[] } & ReplyAnswerSignals;
  },
): MadeReply {
  const confidence = outcome.confidence ?? outcome.body.confidence;
  return {
    question,
    response: outcome.body.response,
    sources: outcome.body.sources,
    ...(confidence ? { confidence } : {}),
    ...(outcome.kind ? { kind: outcome.kind } : {}),
  };
}

/** What a way in adds to its reply: the sources with their citation fields, and the replyId when logged. */
export interface LoggedReplyFields {
  replyId?: string;
  sources: (Source & Citation)[];
}

/**
 * The one call each way in makes after its reply is made: gives the sources their citations
 * (title, section, url, page) and, unless QUESTION_LOG=off, logs the question and reply under a
 * fresh replyId (or the one given: /api/v1's completion id) in one store round trip. A failed
 * write costs the reply its replyId, never the reply.
 */
export async function logReply(
  services: Pick<Services, 'store' | 'config' | 'now'>,
  reply: MadeReply,
  replyId?: string,
): Promise<LoggedReplyFields> {
  const sources = withCitations(reply.sources);
  const log = questionLogOf(services);
  if (!log.enabled) return { sources };
  const id = replyId ?? log.newReplyId();
  try {
    await log.record({
      replyId: id,
      question: reply.question,
      reply: reply.response,
      sources,
      level: levelOf(reply),
    });
  } catch (error) {
    logError('question_log_failed', error);
    return { sources };
  }
  return { replyId: id, sources };
}
