/** How well a reply answered: the pipeline's `confidence.level`. */
export type ReplyLevel = 'answer' | 'nearest' | 'none';

/** What a reply may carry that tells how well it answered. */
export interface ReplyAnswerSignals {
  /** The reply pipeline's judgement (issue 27): the one source of truth once every way in carries it. */
  confidence?: { score?: number; level: ReplyLevel };
  /** Today's local reply kind (`ComposedReply['kind']`), until `confidence` is there. */
  kind?: string;
}

/** True when a reply counts as unanswered for the owner: the documents did not answer it. */
export function isUnanswered(level: ReplyLevel): boolean {
  return level === 'none' || level === 'nearest';
}

/** The level of a reply: its `confidence.level`, else the provisional one. Never read from its wording. */
export function levelOf(reply: ReplyAnswerSignals): ReplyLevel {
  return reply.confidence?.level ?? provisionalLevel(reply.kind);
}

/**
 * PROVISIONAL, until the reply pipeline reports `confidence`: today's don't-know path (a local
 * reply of kind `unknown`, or `empty` before anything was taught) is `none`; everything else,
 * and a reply whose kind is not known, counts as answered. Delete this once every way in
 * carries `confidence.level`.
 */
export function provisionalLevel(kind: string | undefined): ReplyLevel {
  return kind === 'unknown' || kind === 'empty' ? 'none' : 'answer';
}
