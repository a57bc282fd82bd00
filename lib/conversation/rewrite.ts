import type { AnswerKind } from '../answer/question.js';
import { shapeOf } from '../answer/question.js';
import type { Turn } from '../sessions/index.js';
import { capitalise } from '../text/index.js';
import {
  decay,
  type EntityKind,
  emptyFocus,
  exchangesOf,
  type Focus,
  namesIn,
  noteAnswer,
  noteQuestion,
  noteTopic,
  referent,
} from './focus.js';

/** What kind of follow-up a message is. */
export type FollowUpKind = 'none' | 'pronoun' | 'ellipsis' | 'why' | 'more';

/** A message made standalone from the conversation's focus. */
export interface FollowUp {
  kind: FollowUpKind;
  /** The question to answer: the message itself, or its standalone rewrite. */
  question: string;
  /** Words of the earlier question that an ellipsis leaves out, searched at full weight. */
  carried: string;
  /** The previous reply, for "why?" and "tell me more". */
  lastAnswer: string;
  focus: Focus;
}

/** Exchanges that feed the focus. */
const EXCHANGES = 4;

const MORE =
  /^(?:(?:please\s+)?(?:tell|show)\s+me\s+more(?:\s+about\s+(?:it|that|this|him|her|them))?|more|go on|continue|keep going|and then|what else|anything else|more please|what happened next|what happened then)[\s.!?]*$/i;
const WHY =
  /^(?:why|why so|why is that|why was that|why not|how come|for what reason|what for|why did (?:he|she|they|it) do (?:that|it)|why\?+)[\s.!?]*$/i;
const ELLIPSIS_START =
  /^(?:and|but|also|so|or|then|what about|how about|and what about|and how about)\b[\s,]*/i;
const PERSON_PRONOUN = /\b(he|him|his|she|her|hers|they|them|their)\b/i;
const THING_PRONOUN = /\b(it|its)\b/i;
const PLACE_PRONOUN =
  /\b(?:(?:go|went|gone|come|came|live|lived|dwelt|dwell|stay|stayed|from|get|got|travel|travelled|fled|flee)\s+)(there)\b/i;
/** Words after "her" that show it is an object ("brought her up"), not a possessive ("her husband"). */
const AFTER_OBJECT = new Set(
  'up down out in on off to from with and or away back at by for as into over again ? . !'.split(' '),
);

/**
 * Rewrites a follow-up into a standalone question from what the conversation has in focus: a
 * pronoun becomes the entity it stands for ("Where did she come from?" -> "Where did Naomi come
 * from?"), an ellipsis carries the earlier question's words ("and his brother?" -> "Who was
 * Moses's brother?"), "why?" and "tell me more" are marked for the reply to look around the
 * previous answer. The conversation is replayed turn by turn, so a pronoun in an earlier
 * question was resolved the same way.
 */
export function resolveFollowUp(
  message: string,
  history: readonly Turn[],
  /** The document or topic a reply answered from (its section's top heading), when the text has one. */
  topicOfAnswer: (answer: string) => string | undefined = () => undefined,
): FollowUp {
  const focus = emptyFocus();
  for (const { question, answer } of exchangesOf(history).slice(-EXCHANGES)) {
    decay(focus);
    const standalone = rewriteWith(question, focus).question;
    // Small talk and replies without a source ("hello", "thanks") leave the focus as it was.
    if (!/\[\d+\]/.test(answer)) continue;
    noteQuestion(focus, standalone);
    noteAnswer(focus, answer, kindAskedFor(shapeOf(standalone).kind));
    const topic = topicOfAnswer(answer);
    if (topic) noteTopic(focus, topic);
  }
  decay(focus);
  const rewritten = rewriteWith(message, focus);
  return { ...rewritten, lastAnswer: focus.lastAnswer, focus };
}

function rewriteWith(message: string, focus: Focus): Omit<FollowUp, 'lastAnswer' | 'focus'> {
  const text = message.trim();
  const none = { kind: 'none' as const, question: text, carried: '' };
  if (!focus.lastAnswer && !focus.lastQuestion) return none;
  if (MORE.test(text) && focus.lastAnswer) return { kind: 'more', question: text, carried: '' };
  if (WHY.test(text) && focus.lastAnswer) return { kind: 'why', question: text, carried: '' };

  const ellipsis = ELLIPSIS_START.test(text) && text.replace(ELLIPSIS_START, '').trim() !== '';
  let question = ellipsis ? text.replace(ELLIPSIS_START, '').trim() : text;
  let replaced = false;
  // A question that names someone of its own uses its pronouns for them ("Who gave her bread ... to Elijah?").
  if (namesIn(question).length === 0) {
    question = question.replace(
      new RegExp(PERSON_PRONOUN, 'gi'),
      (word, _p, offset: number, whole: string) => {
        const entity = referent(focus, 'person');
        if (!entity) return word;
        replaced = true;
        return personForm(word, entity.text, whole.slice(offset + word.length));
      },
    );
    // "it" is replaced only in a short question ("Does it support ranges?"); a longer one names its own topic.
    const thingPronoun = contentWords(question) <= 3 ? new RegExp(THING_PRONOUN, 'gi') : /$^/;
    question = question.replace(thingPronoun, (word) => {
      const entity = referent(focus, 'thing') ?? topicOf(focus);
      if (!entity) return word;
      replaced = true;
      return word.toLowerCase() === 'its' ? `${entity.text}'s` : entity.text;
    });
    question = question.replace(PLACE_PRONOUN, (whole, word: string) => {
      const entity = referent(focus, 'place');
      if (!entity) return whole;
      replaced = true;
      return whole.slice(0, whole.length - word.length) + entity.text;
    });
  }
  if (ellipsis || isFragment(question)) {
    const previous = focus.lastQuestion;
    if (isFragment(question)) question = framed(question, previous);
    return { kind: 'ellipsis', question: capitalise(question), carried: replaced ? '' : previous };
  }
  return replaced ? { kind: 'pronoun', question: capitalise(question), carried: '' } : none;
}

/**
 * A fragment made a question: a noun phrase asks who or what it is ("Marla's husband?" -> "Who was
 * Marla's husband?"); a fragment with a question word of its own ("for how much?") stays as it is
 * and carries the earlier question's words.
 */
function framed(fragment: string, previous: string): string {
  const text = fragment.replace(/[?.!]+$/, '').trim();
  if (/\b(?:who|what|where|when|which|how|why)\b/i.test(text)) return `${text}?`;
  const head = text.split(/\s+/).pop()?.toLowerCase() ?? '';
  const past = /^\w+\s+(?:was|were|did)\b/i.test(previous);
  const verb = past ? 'was' : 'is';
  return PERSON_NOUNS.test(head) ? `Who ${verb} ${text}?` : `What ${verb} ${text}?`;
}

const PERSON_NOUNS =
  /^(?:father|mother|brother|sister|son|daughter|wife|husband|uncle|aunt|cousin|child|children|sons|daughters|king|queen|friend|author|maintainer|owner|founder|parent|spouse|twin|teacher)$/;

/** "his" -> "Moses's", "her husband" -> "Naomi's husband", "brought her up" -> "brought Esther up". */
function personForm(pronoun: string, name: string, after: string): string {
  const lower = pronoun.toLowerCase();
  const possessive = `${name}'s`;
  if (lower === 'his' || lower === 'their' || lower === 'hers') return possessive;
  if (lower === 'her') {
    const next = /^\s*(\p{L}+|[?.!])/u.exec(after)?.[1]?.toLowerCase();
    return next && !AFTER_OBJECT.has(next) ? possessive : name;
  }
  return name;
}

/**
 * The topic of the last question when it names nothing: the noun after its first article or
 * possessive ("Where does the river flow?" -> "river"), else its last content word ("How do I
 * install semver?" -> "semver").
 */
function topicOf(focus: Focus): { text: string } | undefined {
  const afterArticle = /\b(?:the|a|an|my|your|this|that|these|those|our)\s+([\p{L}\p{N}_.-]{3,})/iu.exec(
    focus.lastQuestion,
  )?.[1];
  if (afterArticle && !QUESTION_WORDS.has(afterArticle.toLowerCase())) return { text: afterArticle };
  const words = focus.lastQuestion
    .replace(/[?.!,]/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 2 && !QUESTION_WORDS.has(word.toLowerCase()));
  const topic = words[words.length - 1];
  return topic ? { text: topic } : undefined;
}

/** Words of a question other than question words, pronouns and other short words. */
function contentWords(question: string): number {
  return question
    .replace(/[?.!,]/g, ' ')
    .split(/\s+/)
    .filter(
      (word) =>
        word.length > 2 &&
        !QUESTION_WORDS.has(word.toLowerCase()) &&
        !/^(?:its?|they|them|their)$/i.test(word),
    ).length;
}

const QUESTION_WORDS = new Set(
  'who what where when which why how does did was were is are the and make can could should would will with that this for from into about'.split(
    ' ',
  ),
);

/**
 * A question that is not one on its own: no question word or auxiliary to start it and a few words
 * ("Moses's brother?", "for how much?"), or just two words ("which one?").
 */
function isFragment(question: string): boolean {
  const words = question.replace(/[?.!]/g, '').trim().split(/\s+/);
  if (words.length <= 2 && words[0] !== '')
    return !/^(?:who|what|where|when|why|how)$/i.test(words[0]) || words.length === 1;
  return words.length <= 4 && !QUESTION_START.test(question);
}

const QUESTION_START =
  /^(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|tell|show|explain|describe|list|name|give)\b/i;

function kindAskedFor(kind: AnswerKind): EntityKind {
  return kind === 'person'
    ? 'person'
    : kind === 'place'
      ? 'place'
      : kind === 'thing' || kind === 'choice'
        ? 'thing'
        : 'unknown';
}
