import type { AnswersQuestion } from '../suggestions/index.js';
import { gather } from './gather.js';
import { judge } from './judge.js';
import { rank } from './rank.js';
import { evidenceBudgets, type Knowledge } from './types.js';
import { shapeOf } from './understand/index.js';

/** The verdicts, kept per state of the index: the same heading questions are checked again and again. */
const verdicts = new WeakMap<Knowledge['passages'], { size: number; known: Map<string, boolean> }>();
/** Verdicts kept per index before they start afresh. */
const KEPT_VERDICTS = 10_000;

/**
 * Whether the documents answer a question: the pipeline would answer it at level `answer`.
 * Each question is judged once per state of the index.
 */
export function answersQuestion(knowledge: Knowledge): AnswersQuestion {
  const { passages } = knowledge;
  let kept = verdicts.get(passages);
  if (!kept || kept.size !== passages.size || kept.known.size >= KEPT_VERDICTS) {
    kept = { size: passages.size, known: new Map() };
    verdicts.set(passages, kept);
  }
  const { known } = kept;
  return (question) => {
    const cached = known.get(question);
    if (cached !== undefined) return cached;
    const reading = { question, carried: '', shape: shapeOf(question), resolved: false, prior: -1, said: [] };
    const searches = gather(passages, [reading], evidenceBudgets.expert, false);
    const answered = judge(searches, rank(passages, searches, question)).confidence.level === 'answer';
    known.set(question, answered);
    return answered;
  };
}
