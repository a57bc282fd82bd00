import { answerFromPassages, evidenceBudgets, shapeOf } from '../answer/index.js';
import type { AnswersQuestion, SuggestionKnowledge } from './suggest.js';

/**
 * Today's judgement of whether the documents answer a question: the passage search says
 * `answered`. The reply pipeline may hand in its own (its confidence level `answer`).
 */
export function answersFromPassages(knowledge: SuggestionKnowledge): AnswersQuestion {
  return (question) =>
    answerFromPassages(knowledge.model, knowledge.passages, {
      message: question,
      carried: '',
      shape: shapeOf(question),
      budget: evidenceBudgets.expert,
    }).status === 'answered';
}
