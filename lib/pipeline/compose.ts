import { exampleQuestions } from '../dialogue/index.js';
import type { Extracted } from './extract/index.js';
import type { Knowledge } from './types.js';

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
  return `The closest I found may not answer your question: ${extracted.text}`;
}

/**
 * The reply at level `none`, for the person asking: the documents do not cover it, and two or
 * three questions they do answer.
 */
export function unknownText(knowledge: Knowledge, unknownWords: readonly string[]): string {
  const about =
    unknownWords.length > 0
      ? `The documents I was given don't mention ${listed(unknownWords.slice(0, 3).map((word) => `"${word}"`))}, so I can't answer that.`
      : "I couldn't find that in the documents I was given, so I can't answer it.";
  const examples = exampleQuestions(knowledge.passages, knowledge.model);
  if (examples.length === 0) return about;
  return `${about} They do answer questions such as ${listed(examples, 'or')}`;
}

/** The reply to a message with nothing to look up in it. */
export function unclearText(knowledge: Knowledge): string {
  const examples = exampleQuestions(knowledge.passages, knowledge.model);
  const text = "I'm not sure what you mean.";
  return examples.length === 0 ? text : `${text} You could ask me, for example: ${listed(examples, 'or')}`;
}

function listed(items: readonly string[], joiner = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;
}
