import { questionKey } from './group.js';
import { isUnanswered } from './level.js';
import { dateOf } from './log.js';
import type { DayCount, LoggedReply, QuestionEntry, QuestionKind } from './types.js';

/** Entries one owner's query answers at most. */
export const MAX_ENTRIES = 100;
/** Comments one entry carries at most. */
const MAX_COMMENTS = 20;

/**
 * The owner's list: logged replies of the kind asked, similar questions as one entry, the most
 * asked first (`disliked`: the most thumbs down first). `replies` come newest first, so an
 * entry's wording, reply and sources are its latest.
 */
export function questionReport(replies: readonly LoggedReply[], kind: QuestionKind): QuestionEntry[] {
  const chosen = kind === 'unanswered' ? replies.filter((reply) => isUnanswered(reply.level)) : replies;
  const groups = new Map<string, QuestionEntry & { lastAt: number }>();
  for (const reply of chosen) {
    const key = questionKey(reply.question);
    let entry = groups.get(key);
    if (!entry) {
      entry = {
        question: reply.question,
        count: 0,
        lastAskedAt: new Date(reply.askedAt).toISOString(),
        lastAt: reply.askedAt,
        reply: reply.reply,
        sources: reply.sources,
        up: 0,
        down: 0,
        comments: [],
      };
      groups.set(key, entry);
    }
    entry.count++;
    if (reply.rating === 'up') entry.up++;
    if (reply.rating === 'down') entry.down++;
    if (reply.comment && entry.comments.length < MAX_COMMENTS) entry.comments.push(reply.comment);
  }
  let entries = [...groups.values()];
  if (kind === 'disliked') entries = entries.filter((entry) => entry.down > 0);
  entries.sort(
    (a, b) => (kind === 'disliked' ? b.down - a.down : 0) || b.count - a.count || b.lastAt - a.lastAt,
  );
  return entries.slice(0, MAX_ENTRIES).map(({ lastAt: _lastAt, ...entry }) => entry);
}

/** Answered and unanswered replies per UTC day, oldest day first, every day of the range present. */
export function answeredPerDay(replies: readonly LoggedReply[], days: number, now: number): DayCount[] {
  const counts = new Map<string, DayCount>();
  for (let i = days - 1; i >= 0; i--) {
    const date = dateOf(now - i * 86_400_000);
    counts.set(date, { date, answered: 0, unanswered: 0 });
  }
  for (const reply of replies) {
    const day = counts.get(dateOf(reply.askedAt));
    if (!day) continue;
    if (isUnanswered(reply.level)) day.unanswered++;
    else day.answered++;
  }
  return [...counts.values()];
}
