import {
  questionsNear,
  suggestedQuestions,
  UNKNOWN_REPLY_SUGGESTIONS,
  unknownReplyText,
} from '../suggestions/index.js';
import { answersQuestion } from './answerable.js';
import type { Extracted } from './extract/index.js';
import type { Knowledge } from './types.js';
import { NEAREST_PREFACE } from './wording.js';

/**
 * What an untrained service answers. Only a fresh install with nothing taught says this, so it
 * speaks to the owner: how to teach it.
 */
export const EMPTY_KNOWLEDGE_REPLY =
  "I don't know anything yet: nothing has been taught to me. Teach me with POST /api/train (or `npm run train -- FILE`) and ask again.";

/** The reply at level `answer`: the extracted text as it is. */
export function answerText(extracted: Extracted): string {
  return extracted.text;
}

/** The reply at level `nearest`: it says plainly that the closest passage may not answer. */
export function nearestText(extracted: Extracted): string {
  return `${NEAREST_PREFACE}${extracted.text}`;
}

/**
 * The reply at level `none`, for the person asking: the documents do not cover it, and two or
 * three questions they do answer (`template` is UNKNOWN_REPLY).
 */
export function unknownText(knowledge: Knowledge, template?: string, near: readonly number[] = []): string {
  // The sections the search came nearest to, best first: their questions come before the
  // largest sections' (lib/suggestions).
  const sections = [...new Set(near.map((id) => knowledge.passages.sectionIdOf(id)))];
  const related = questionsNear(knowledge, sections, UNKNOWN_REPLY_SUGGESTIONS, answersQuestion(knowledge));
  const offered = related.length < UNKNOWN_REPLY_SUGGESTIONS ? offeredQuestions(knowledge) : [];
  const seen = new Set(related.map((question) => question.toLowerCase()));
  return unknownReplyText(
    [...related, ...offered.filter((question) => !seen.has(question.toLowerCase()))],
    template,
  );
}

/** The reply to a message with nothing to look up in it. */
export function unclearText(knowledge: Knowledge): string {
  const offered = offeredQuestions(knowledge);
  const text = "I'm not sure what you mean.";
  return offered.length === 0
    ? text
    : `${text} You could ask me, for example: ${listed(
        offered.map((q) => `"${q}"`),
        'or',
      )}`;
}

/**
 * Questions the documents answer, the first three GET /api/suggestions offers: made from real
 * section headings (or, for text without them, about the names it mentions most) and checked by
 * this pipeline (lib/suggestions).
 */
function offeredQuestions(knowledge: Knowledge): string[] {
  return suggestedQuestions(knowledge, answersQuestion(knowledge)).slice(0, 3);
}

function listed(items: readonly string[], joiner = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;
}

/** An image sent with the message, as the local analysis saw it (lib/vision). */
export interface SeenImage {
  /** Plain sentences about the image. */
  description: string;
  /** The lines of text read in it. */
  text: readonly string[];
  textStatus: string;
}

/**
 * The reply with the image described first, and what its text reading found ("I found no text in
 * it." or its first lines), so the person knows what was seen. A reply read from the image's own
 * text needs no description before it.
 */
export function withImageDescription<T extends { text: string; sources: readonly { ref: object }[] }>(
  image: SeenImage,
  reply: T,
): T {
  if (reply.sources.some((source) => 'image' in source.ref)) return reply;
  const { text, textStatus } = image;
  let reading = '';
  if (textStatus === 'none') reading = 'I found no text in it.';
  else if (textStatus === 'timed_out') reading = 'Reading its text took too long, so I left it.';
  else if (text.length > 0) {
    const first = text.slice(0, 3).join(' / ');
    reading = `It reads: “${first}”${text.length > 3 ? ` and ${text.length - 3} more line${text.length === 4 ? '' : 's'}` : ''}.`;
  }
  return { ...reply, text: [image.description, reading, reply.text].filter(Boolean).join(' ') };
}
