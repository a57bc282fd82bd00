import type { ReplyLevel } from './level.js';

/** A source as the question log keeps it: where it points and the start of its text. */
export interface LoggedSource {
  title?: string;
  section?: string;
  url?: string;
  page?: number;
  text: string;
}

/** One logged reply: the question, the reply with its sources, and the visitor's rating. */
export interface LoggedReply {
  replyId: string;
  question: string;
  reply: string;
  sources: LoggedSource[];
  level: ReplyLevel;
  /** Unix milliseconds. */
  askedAt: number;
  rating?: 'up' | 'down';
  comment?: string;
}

/** Which questions the owner asks for. */
export type QuestionKind = 'unanswered' | 'disliked' | 'top';

/** Similar questions as one entry of GET /api/admin/questions. */
export interface QuestionEntry {
  /** The latest wording. */
  question: string;
  count: number;
  /** ISO 8601. */
  lastAskedAt: string;
  /** The latest reply and its sources. */
  reply: string;
  sources: LoggedSource[];
  up: number;
  down: number;
  /** Visitors' comments, latest first. */
  comments: string[];
}

/** Answered and unanswered replies of one UTC day (the owner view's chart). */
export interface DayCount {
  /** YYYY-MM-DD. */
  date: string;
  answered: number;
  unanswered: number;
}
