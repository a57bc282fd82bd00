import type { AnswersQuestion } from '../suggestions/index.js';
import { gather } from './gather.js';
import { judge } from './judge.js';
import { rank } from './rank.js';
import { evidenceBudgets, type Knowledge } from './types.js';
import { shapeOf } from './understand/index.js';

/** Whether the documents answer a question: the pipeline would answer it at level `answer`. */
export function answersQuestion(knowledge: Knowledge): AnswersQuestion {
  return (question) => {
    const reading = { question, carried: '', shape: shapeOf(question), resolved: false, prior: -1, said: [] };
    const searches = gather(knowledge.passages, [reading], evidenceBudgets.expert, false);
    return judge(searches, rank(knowledge.passages, searches, question)).confidence.level === 'answer';
  };
}
