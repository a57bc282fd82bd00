import { type DialogueKnowledge, type SocialReply, socialReply } from '../../dialogue/index.js';
import type { PassageIndex } from '../../retrieval/index.js';
import { searchTerm } from '../../retrieval/index.js';
import type { Turn } from '../../sessions/index.js';
import { exampleNear, previousPassage, quotedPassages } from '../around.js';
import { COMMON_NAME_SHARE } from '../tuning.js';
import type { Knowledge } from '../types.js';
import { type FollowUp, resolveFollowUp, withoutLinkingAdverb } from './follow-up.js';
import { asksForMadeUpText, madeUpTopic, type QuestionShape, shapeOf } from './shape.js';

export type { FollowUp, FollowUpKind } from './follow-up.js';
export { quotedTurn } from './follow-up.js';
export { type AnswerKind, type QuestionShape, shapeOf, type UnitWanted } from './shape.js';

/** One way of reading the message, searched and ranked beside the others. */
export interface Reading {
  question: string;
  /** Words carried over from the earlier question, searched at lower weight ('' for none). */
  carried: string;
  shape: QuestionShape;
  /** True for the reading resolved against the conversation. */
  resolved: boolean;
  /** For a resolved reading, true where only a repeated noun says the message leans on the conversation. */
  tentative?: boolean;
  /** The resolved reading worded as a whole question, where `question` (what is searched) is not one. */
  shown?: string;
  /** The earlier answer's unit (a passage id), a prior in ranking; -1 for none. */
  prior: number;
  /** Every unit the earlier answer quoted (the prior first): already said, so not the answer again. */
  said: readonly number[];
  /** Those of them the earlier answer showed only in part (cut with "…"): the rest is unread. */
  partly?: readonly number[];
}

/** What the first stage made of a message. */
export type Understanding =
  | { kind: 'social'; social: SocialReply; empty: boolean }
  | { kind: 'empty' }
  | { kind: 'made-up'; topic: string }
  /** "why?", "more", "an example": about the earlier answer's unit (`from`, -1 when it is not found). */
  | { kind: 'around'; followUp: FollowUp; from: number }
  | { kind: 'question'; readings: Reading[]; followUp: FollowUp };

/**
 * Understand: small talk (the dialogue layer, only when it is sure), a request for made-up text,
 * and otherwise the readings of a question: as written and, when its language leans on the
 * conversation (a pronoun with nothing to point at, an ellipsis, "why?", "more", "an example"),
 * resolved against it, with the earlier answer's unit as a prior.
 */
export function understand(knowledge: Knowledge, message: string, history: readonly Turn[]): Understanding {
  const { model, passages } = knowledge;
  const empty = passages.size === 0 && model.vocabSize === 0;
  const social = socialReply(message, knowledge as DialogueKnowledge);
  if (social) return { kind: 'social', social, empty };
  if (empty) return { kind: 'empty' };
  if (asksForMadeUpText(message)) return { kind: 'made-up', topic: madeUpTopic(message) };

  const followUp = resolveFollowUp(
    message,
    history,
    (answer) => topicOfAnswer(passages, answer),
    (name) => isCommonName(passages, name),
  );
  // A reply quotes up to a few units, each closed by its [n]: all of them are what the reader has
  // seen, and the first is where the earlier answer was found.
  const quoted = followUp.kind === 'none' ? [] : quotedPassages(passages, followUp.lastAnswer);
  // Where "it" was read as the name the earlier reply answered with, the message asks about that
  // name, and the unit that gave it is where the text says what it is: not a repeat to avoid.
  const named = followUp.named
    ? new RegExp(
        `(?<![\\p{L}\\p{N}_])${followUp.named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_])`,
        'iu',
      )
    : null;
  const said = quoted.filter((unit) => !named?.test(passages.text(unit.id))).map((unit) => unit.id);
  const partly = quoted.filter((unit) => unit.partly).map((unit) => unit.id);
  const prior = quoted[0]?.id ?? -1;
  if (followUp.kind === 'why' || followUp.kind === 'more') return { kind: 'around', followUp, from: prior };
  // "An example": the one nearest the earlier answer when its section has one (the pipeline looks
  // there first), else an example of the earlier question's topic, searched as a how-to.
  if (followUp.kind === 'example' && prior >= 0 && exampleNear(passages, prior) !== undefined) {
    return { kind: 'around', followUp, from: prior };
  }
  // A follow-up as written is searched without the adverb that links it to the turn before
  // ("how do I undo that later?"): the adverb points back as a pronoun does, and names nothing the
  // documents say in this reading either ("later" found only "you won't get confused later").
  const written =
    followUp.kind === 'pronoun' || followUp.kind === 'ellipsis'
      ? withoutLinkingAdverb(message)
      : message.trim();
  const asWritten: Reading = {
    question: written,
    carried: '',
    shape: shapeOf(message),
    resolved: false,
    prior: -1,
    said: [],
  };
  if (followUp.kind === 'none') return { kind: 'question', readings: [asWritten], followUp };
  const resolved: Reading = {
    question: followUp.question,
    carried: followUp.carried,
    shape: shapeOf(followUp.question === message.trim() ? followUp.lastQuestion : followUp.question),
    resolved: true,
    ...(followUp.tentative ? { tentative: true } : {}),
    ...(followUp.shown ? { shown: followUp.shown } : {}),
    prior,
    said,
    partly,
  };
  // The shape of "how do I undo it?" is its own; only a fragment takes the earlier question's.
  if (followUp.question === message.trim()) resolved.shape = { ...shapeOf(message) };
  if (followUp.kind === 'example') {
    // "Show me an example" is all request: as written it asks for nothing but the word "example",
    // so only the reading of the earlier question is searched.
    return {
      kind: 'question',
      readings: [{ ...resolved, shape: { ...resolved.shape, wants: 'example' } }],
      followUp,
    };
  }
  return { kind: 'question', readings: [asWritten, resolved], followUp };
}

/**
 * The top heading of the section the earlier answer quoted: the topic a pronoun may stand for;
 * '' when the passage has no heading, undefined when the answer quoted no passage.
 */
function topicOfAnswer(passages: PassageIndex, answer: string): string | undefined {
  const from = previousPassage(passages, answer);
  if (from < 0) return undefined;
  return (
    passages
      .section(from)
      .path[0]?.replace(/[([{].*$/, '')
      .trim() ?? ''
  );
}

/**
 * Whether a name is written in so many passages (COMMON_NAME_SHARE, and at least `least`) that it
 * is the text's own subject.
 */
export function isCommonName(passages: PassageIndex, name: string, least = 0): boolean {
  const term = searchTerm(name.split(/\s+/)[0] ?? '');
  if (!term || passages.size === 0) return false;
  const written = passages.documentFrequency(term);
  return written >= least && written > passages.size * COMMON_NAME_SHARE;
}
