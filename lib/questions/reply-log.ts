import { type Citation, withCitations } from '../citations/index.js';
import { logError } from '../log/index.js';
import type { Source } from '../pipeline/index.js';
import type { Services } from '../services/index.js';
import type { StoreBatch } from '../store/index.js';
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

/** What a way in adds to its reply: the sources with their citation fields, and the replyId when logged. */
export interface LoggedReplyFields {
  replyId?: string;
  sources: (Source & Citation)[];
}

/**
 * The one call a way in without a stored exchange (Variant B) makes after its reply: gives the sources their citations
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

/** A reply's text and sources as the exchange is written, with what tells how well it answered. */
export interface ReplyToWrite extends ReplyAnswerSignals {
  response: string;
  sources: readonly Source[];
}

/** How a way in that records its exchange in the store logs the reply in the same round trip. */
export interface ReplyLogPlan {
  /** The reply's id, made before the reply; undefined with QUESTION_LOG=off. */
  replyId?: string;
  /** Queues the log's writes on the exchange's batch (give it to `respondToChat` as `record`). */
  write?: (batch: StoreBatch, reply: ReplyToWrite) => void;
  /** The fields the reply gets: its sources with citations, and the replyId once written. */
  fields(sources: readonly Source[]): LoggedReplyFields;
}

/**
 * The one call a way in that records its exchange makes before replying (POST /api/chat,
 * /api/ui/chat, /api/v1): the reply's log is written in the batch that records the exchange,
 * so logging costs no round trip of its own. `replyId`: /api/v1's completion id.
 */
export function planReplyLog(
  services: Pick<Services, 'store' | 'config' | 'now'>,
  question: string,
  replyId?: string,
): ReplyLogPlan {
  const log = questionLogOf(services);
  if (!log.enabled) return { fields: (sources) => ({ sources: withCitations(sources) }) };
  const id = replyId ?? log.newReplyId();
  let written = false;
  return {
    replyId: id,
    write(batch, reply) {
      log.recordInto(batch, {
        replyId: id,
        question,
        reply: reply.response,
        sources: withCitations(reply.sources),
        level: levelOf(reply),
      });
      written = true;
    },
    fields: (sources) => ({ sources: withCitations(sources), ...(written ? { replyId: id } : {}) }),
  };
}
