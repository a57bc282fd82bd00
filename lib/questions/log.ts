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
  /**
   * One reply: a JSON value { question, reply, sources, level, askedAt } with its expiry, set in
   * one write: a string key costs the exchange's round trip one row where a hash of five fields
   * and its own expiry cost several.
   */
  entry: (replyId: string) => `questions:entry:${replyId}`,
  /** The visitor's rating of a reply: a JSON value { rating, comment? }, expiring with the reply. */
  rating: (replyId: string) => `questions:rating:${replyId}`,
  /**
   * One reply as logged before the JSON entries (a hash of question, reply, sources, level,
   * askedAt, rating, comment): still read and rated until it expires.
   */
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
    const day = questionKeys.day(dateOf(askedAt));
    const sources = entry.sources.slice(0, MAX_SOURCES).map(keptSource);
    const record: StoredEntry = {
      question: entry.question,
      reply: entry.reply,
      sources,
      level: entry.level,
      askedAt,
    };
    batch
      .set(questionKeys.entry(entry.replyId), JSON.stringify(record), { ttlSeconds: keepSeconds })
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
      const legacyKey = questionKeys.reply(replyId);
      const [raw, legacyAskedAt] = await store
        .batch()
        .get(questionKeys.entry(replyId))
        .hget(legacyKey, 'askedAt')
        .exec();
      const stored = entryOf(raw);
      const askedAt = stored ? stored.askedAt : Number(legacyAskedAt ?? Number.NaN);
      if (!Number.isFinite(askedAt)) return false;
      const left = Math.ceil((askedAt + keepMs - options.now()) / 1000);
      if (left <= 0) return false;
      // A second rating replaces the first, comment and all. The rating expires with its reply, so
      // a record that expired between the read and the write leaves nothing kept for ever.
      if (stored) {
        const value = JSON.stringify(comment ? { rating, comment } : { rating });
        await store.set(questionKeys.rating(replyId), value, { ttlSeconds: left });
        return true;
      }
      await store
        .batch()
        .hset(legacyKey, { rating, comment: comment ?? '' })
        .expire(legacyKey, left)
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
      const found: (LoggedReply | undefined)[] = [];
      for (let start = 0; start < newest.length; start += READ_BATCH / 2) {
        const ids = newest.slice(start, start + READ_BATCH / 2);
        const batch = store.batch();
        for (const id of ids) batch.get(questionKeys.entry(id)).get(questionKeys.rating(id));
        const values = await batch.exec();
        for (let i = 0; i < ids.length; i++) found.push(loggedOf(ids[i], values[2 * i], values[2 * i + 1]));
      }
      // Replies logged before the JSON entries are hashes: read those the entries did not find.
      const legacy = newest.flatMap((_id, i) => (found[i] ? [] : [i]));
      for (let start = 0; start < legacy.length; start += READ_BATCH) {
        const at = legacy.slice(start, start + READ_BATCH);
        const batch = store.batch();
        for (const i of at) batch.hgetall(questionKeys.reply(newest[i]!));
        const rows = (await batch.exec()) as Record<string, string>[];
        at.forEach((i, j) => {
          found[i] = replyOf(newest[i]!, rows[j] ?? {});
        });
      }
      const replies: LoggedReply[] = [];
      for (const reply of found) {
        if (reply && reply.askedAt > since && reply.askedAt <= now) replies.push(reply);
      }
      return replies.sort((a, b) => b.askedAt - a.askedAt);
    },
  };
}

/** The last day `dateOf` formatted: every reply of a day asks for the same date. */
let lastDay = { start: 0, end: 0, date: '' };

/** A UTC date, YYYY-MM-DD. */
export function dateOf(ms: number): string {
  if (ms >= lastDay.start && ms < lastDay.end) return lastDay.date;
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  const date = new Date(ms).toISOString().slice(0, 10);
  lastDay = { start, end: start + DAY_MS, date };
  return date;
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

/** A reply's entry as stored under `questionKeys.entry`. */
interface StoredEntry {
  question: string;
  reply: string;
  sources: LoggedSource[];
  level: ReplyLevel;
  askedAt: number;
}

function entryOf(raw: unknown): StoredEntry | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredEntry>;
    if (typeof parsed?.question !== 'string' || !Number.isFinite(parsed.askedAt)) return undefined;
    return parsed as StoredEntry;
  } catch {
    return undefined;
  }
}

/** A reply from its entry and its rating (both JSON values); undefined when the entry is missing or damaged. */
function loggedOf(replyId: string, rawEntry: unknown, rawRating: unknown): LoggedReply | undefined {
  const entry = entryOf(rawEntry);
  if (!entry) return undefined;
  let rated: { rating?: unknown; comment?: unknown } = {};
  if (typeof rawRating === 'string') {
    try {
      rated = JSON.parse(rawRating) ?? {};
    } catch {
      rated = {};
    }
  }
  const rating = rated.rating === 'up' || rated.rating === 'down' ? rated.rating : undefined;
  const comment = typeof rated.comment === 'string' && rated.comment ? rated.comment : undefined;
  return {
    replyId,
    question: entry.question,
    reply: typeof entry.reply === 'string' ? entry.reply : '',
    sources: Array.isArray(entry.sources) ? entry.sources : [],
    level: entry.level === 'none' || entry.level === 'nearest' ? entry.level : 'answer',
    askedAt: entry.askedAt,
    ...(rating ? { rating } : {}),
    ...(comment ? { comment } : {}),
  };
}

/** A reply logged as a hash (before the JSON entries). */
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
