/** How well a reply answered: the pipeline's `confidence.level`. */
export type ReplyLevel = 'answer' | 'nearest' | 'none';

/** What a reply carries that tells how well it answered. */
export interface ReplyAnswerSignals {
  /** The reply pipeline's judgement: the one source of truth, never the reply's wording. */
  confidence?: { score?: number; level: ReplyLevel };
}

/** True when a reply counts as unanswered for the owner: the documents did not answer it. */
export function isUnanswered(level: ReplyLevel): boolean {
  return level === 'none' || level === 'nearest';
}

/** The level of a reply: its `confidence.level` (a reply without one, such as an external model's error, counts as answered). */
export function levelOf(reply: ReplyAnswerSignals): ReplyLevel {
  return reply.confidence?.level ?? 'answer';
}
