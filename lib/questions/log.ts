import { randomUUID } from 'node:crypto';
import type { Store, StoreBatch } from '../store/index.js';
import type { ReplyLevel } from './level.js';
import type { LoggedReply, LoggedSource } from './types.js';

const DAY_MS = 86_400_000;
/** The most replies one owner's query reads (the newest first); older ones are left out. */
export const MAX_READ_REPLIES = 20_000;
/** Records read per round trip by the owner's query. */
const READ_BATCH = 1000;
/** Characters of a source's text kept with a logged reply. */
const SOURCE_TEXT_CHARS = 300;
/** Sources kept with a logged reply. */
const MAX_SOURCES = 6;

/** Store keys of the question log. */
export const questionKeys = {
  /** One reply: a hash of question, reply, sources (JSON), level, askedAt, rating, comment. */
  reply: (replyId: string) => `questions:reply:${replyId}`,
  /** The replyIds of one UTC day, in the order asked. */
  day: (date: string) => `questions:day:${date}`,
  prefix: 'questions:',
} as const;

/** What a way in logs of a reply. */
export interface ReplyToLog {
  replyId: string;
  question: string;
  reply: string;
  sources: readonly LoggedSource[];
  level: ReplyLevel;
}

/** The question log: what visitors asked, what they got and how they rated it, for QUESTION_LOG_DAYS. */
export interface QuestionLog {
  /** False with QUESTION_LOG=off: nothing is stored and replies carry no replyId. */
  readonly enabled: boolean;
  /** A fresh replyId. */
  newReplyId(): string;
  /** Stores a reply in one round trip. */
  record(entry: ReplyToLog): Promise<void>;
  /** Queues a reply's writes on a batch another write sends (the exchange's), so both take one round trip. */
  recordInto(batch: StoreBatch, entry: ReplyToLog): void;
  /** Sets the visitor's rating (and comment) of a reply; false when the reply is not (or no longer) logged. */
  rate(replyId: string, rating: 'up' | 'down', comment?: string): Promise<boolean>;
  /** The replies of the last `days` days, newest first. */
  read(days: number): Promise<LoggedReply[]>;
}

export interface QuestionLogOptions {
  enabled: boolean;
  /** Days a record is kept (QUESTION_LOG_DAYS). */
  days: number;
  now: () => number;
}

/** The question log over a store. No client address, session or user is ever written to it. */
export function createQuestionLog(store: Store, options: QuestionLogOptions): QuestionLog {
  const keepMs = options.days * DAY_MS;
  const keepSeconds = options.days * 86_400;
  const recordInto = (batch: StoreBatch, entry: ReplyToLog): void => {
    if (!options.enabled) return;
    const askedAt = options.now();
    const key = questionKeys.reply(entry.replyId);
    const day = questionKeys.day(dateOf(askedAt));
    const sources = entry.sources.slice(0, MAX_SOURCES).map(keptSource);
    batch
      .hset(key, {
        question: entry.question,
        reply: entry.reply,
        sources: JSON.stringify(sources),
        level: entry.level,
        askedAt,
      })
      .expire(key, keepSeconds)
      .rpush(day, entry.replyId)
      // A day's list outlives its last record by a day, so no listed record outlives its list.
      .expire(day, keepSeconds + 86_400);
  };
  return {
    enabled: options.enabled,
    newReplyId: () => `reply-${randomUUID().replaceAll('-', '')}`,

    async record(entry) {
      if (!options.enabled) return;
      const batch = store.batch();
      recordInto(batch, entry);
      await batch.exec();
    },

    recordInto,

    async rate(replyId, rating, comment) {
      const key = questionKeys.reply(replyId);
      const stored = await store.hgetall(key);
      const askedAt = Number(stored.askedAt);
      if (!Number.isFinite(askedAt)) return false;
      const left = Math.ceil((askedAt + keepMs - options.now()) / 1000);
      if (left <= 0) return false;
      // A second rating replaces the first, comment and all; the expiry is set again so a record
      // that expired between the read and the write is never kept for ever.
      await store
        .batch()
        .hset(key, { rating, comment: comment ?? '' })
        .expire(key, left)
        .exec();
      return true;
    },

    async read(days) {
      const now = options.now();
      const since = now - Math.min(days * DAY_MS, keepMs);
      const dates: string[] = [];
      for (let at = now; at > since - DAY_MS; at -= DAY_MS) dates.push(dateOf(at));
      const lists = dates.reduce((batch, date) => batch.lrange(questionKeys.day(date), 0, -1), store.batch());
      const ids = ((await lists.exec()) as string[][]).flatMap((list) => [...(list ?? [])].reverse());
      const newest = ids.slice(0, MAX_READ_REPLIES);
      if (newest.length === 0) return [];
      // In batches of a bounded size: one pipeline of 20,000 commands would pass Upstash's request cap.
      const rows: Record<string, string>[] = [];
      for (let start = 0; start < newest.length; start += READ_BATCH) {
        const batch = store.batch();
        for (const id of newest.slice(start, start + READ_BATCH)) batch.hgetall(questionKeys.reply(id));
        rows.push(...((await batch.exec()) as Record<string, string>[]));
      }
      const replies: LoggedReply[] = [];
      rows.forEach((row, i) => {
        const reply = replyOf(newest[i]!, row ?? {});
        if (reply && reply.askedAt > since && reply.askedAt <= now) replies.push(reply);
      });
      return replies.sort((a, b) => b.askedAt - a.askedAt);
    },
  };
}

/** A UTC date, YYYY-MM-DD. */
export function dateOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function keptSource(source: LoggedSource): LoggedSource {
  const text =
    source.text.length > SOURCE_TEXT_CHARS ? `${source.text.slice(0, SOURCE_TEXT_CHARS)}…` : source.text;
  return {
    ...(source.title ? { title: source.title } : {}),
    ...(source.section ? { section: source.section } : {}),
    ...(source.url ? { url: source.url } : {}),
    ...(source.page ? { page: source.page } : {}),
    text,
  };
}

function replyOf(replyId: string, row: Record<string, string>): LoggedReply | undefined {
  const askedAt = Number(row.askedAt);
  if (!Number.isFinite(askedAt) || row.question === undefined) return undefined;
  let sources: LoggedSource[] = [];
  try {
    const parsed = JSON.parse(row.sources ?? '[]');
    if (Array.isArray(parsed)) sources = parsed;
  } catch {
    sources = [];
  }
  const level = row.level === 'none' || row.level === 'nearest' ? row.level : 'answer';
  const rating = row.rating === 'up' || row.rating === 'down' ? row.rating : undefined;
  return {
    replyId,
    question: row.question,
    reply: row.reply ?? '',
    sources,
    level,
    askedAt,
    ...(rating ? { rating } : {}),
    ...(row.comment ? { comment: row.comment } : {}),
  };
}
