import { type LanguageModel, usuallyCapitalised } from '../lm/index.js';
import type { PassageIndex } from '../retrieval/index.js';
import { nameQuestions } from './names.js';
import { questionFromHeading } from './phrase.js';

/** Most questions a list holds (GET /api/suggestions). */
export const MAX_SUGGESTIONS = 5;
/** Headings tried at most, biggest sections first, before giving up on more. */
const TRIED_HEADINGS = 12;
/** Fewer questions than this from the headings, and the names the text mentions are asked about too. */
const FEW_FROM_HEADINGS = 2;

/** What the suggestions are made from: the passage index and its model (for names' casing). */
export interface SuggestionKnowledge {
  passages: PassageIndex;
  model: LanguageModel;
}

/** Tells whether the documents answer a question (the reply pipeline's judgement, passed in). */
export type AnswersQuestion = (question: string) => boolean;

const cache = new WeakMap<PassageIndex, { size: number; checked: boolean; questions: string[] }>();

/**
 * Up to five questions the documents answer: made from the headings of their largest sections
 * (one question per heading wording, document order breaking ties), and, when the headings give
 * fewer than two (text without headings), about the names the text mentions most. With
 * `answers`, a question is kept only when the documents answer it. GET /api/suggestions and the
 * don't-know reply both offer this list. Worked out once per state of the index.
 */
export function suggestedQuestions(knowledge: SuggestionKnowledge, answers?: AnswersQuestion): string[] {
  const { passages, model } = knowledge;
  const cached = cache.get(passages);
  if (cached && cached.size === passages.size && (cached.checked || !answers)) return cached.questions;
  const questions = fromHeadings(knowledge, answers);
  if (questions.length < FEW_FROM_HEADINGS) {
    for (const question of nameQuestions(passages, model, MAX_SUGGESTIONS)) {
      if (questions.length >= MAX_SUGGESTIONS) break;
      if (!answers || answers(question)) questions.push(question);
    }
  }
  cache.set(passages, { size: passages.size, checked: answers !== undefined, questions });
  return questions;
}

function fromHeadings(knowledge: SuggestionKnowledge, answers?: AnswersQuestion): string[] {
  const { passages } = knowledge;
  const largest = passages.sections
    .map((_, id) => ({ size: passages.sectionSizes[id] ?? 0, id }))
    .filter(({ size }) => size > 0)
    .sort((a, b) => b.size - a.size || a.id - b.id)
    .map(({ id }) => id);
  return questionsFromSections(knowledge, largest, MAX_SUGGESTIONS, TRIED_HEADINGS, answers);
}

/** Headings tried at most for questions near a question the documents do not answer. */
const TRIED_NEAR = 6;

/**
 * Questions the documents answer about the given sections (those a search came nearest to, best
 * first), made from their headings as the list above is and checked with `answers`: what is near
 * a question the documents do not answer is the likeliest next one.
 */
export function questionsNear(
  knowledge: SuggestionKnowledge,
  sections: readonly number[],
  limit: number,
  answers: AnswersQuestion,
): string[] {
  return questionsFromSections(knowledge, sections, limit, TRIED_NEAR, answers);
}

/**
 * Up to `limit` questions from the innermost headings of the sections, in the order given (one
 * question per wording), phrasing at most `tried` headings; with `answers`, only those it accepts.
 */
function questionsFromSections(
  { passages, model }: SuggestionKnowledge,
  sections: readonly number[],
  limit: number,
  tried: number,
  answers?: AnswersQuestion,
): string[] {
  const isName = (word: string) => usuallyCapitalised(model, word);
  const seen = new Set<string>();
  const questions: string[] = [];
  let phrased = 0;
  for (const section of sections) {
    if (questions.length >= limit || phrased >= tried) break;
    const heading = passages.sections[section]?.path.at(-1);
    const question = heading ? questionFromHeading(heading, isName) : undefined;
    if (!question || seen.has(question.toLowerCase())) continue;
    seen.add(question.toLowerCase());
    phrased++;
    if (answers && !answers(question)) continue;
    questions.push(question);
  }
  return questions;
}
