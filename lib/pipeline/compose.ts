import { exampleQuestions } from '../dialogue/index.js';
import { suggestedQuestions, unknownReplyText } from '../suggestions/index.js';
import { answersQuestion } from './answerable.js';
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
 * three questions they do answer, made from real section headings (lib/suggestions) or, for text
 * without headings, about the names it mentions most. `template` is UNKNOWN_REPLY.
 */
export function unknownText(knowledge: Knowledge, template?: string): string {
  const fromHeadings = suggestedQuestions(knowledge, answersQuestion(knowledge));
  const offered =
    fromHeadings.length >= 2
      ? fromHeadings
      : [
          ...fromHeadings,
          ...exampleQuestions(knowledge.passages, knowledge.model).map((quoted) =>
            quoted.replace(/^"|"$/g, ''),
          ),
        ];
  return unknownReplyText([...new Set(offered)], template);
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
