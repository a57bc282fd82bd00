import { hasSense } from '../../lexicon/index.js';
import { searchTerm } from '../../retrieval/index.js';
import type { Turn } from '../../sessions/index.js';
import { capitalise, STOP_WORDS } from '../../text/index.js';
import {
  decay,
  type EntityKind,
  emptyFocus,
  exchangesOf,
  type Focus,
  type Gender,
  namesIn,
  noteAnswer,
  noteQuestion,
  noteTopic,
  referent,
} from './focus.js';
import { type AnswerKind, shapeOf } from './shape.js';

/**
 * What kind of follow-up a message is, read from its language alone: `pronoun` (a pronoun or
 * demonstrative with nothing to point at in the message), `ellipsis` ("what about X?", "and X?",
 * a fragment), `why`, `more` ("go on", "what else"), `example` ("show me an example").
 */
export type FollowUpKind = 'none' | 'pronoun' | 'ellipsis' | 'why' | 'more' | 'example';

/** A message read against the conversation. */
export interface FollowUp {
  kind: FollowUpKind;
  /** The question to answer: the message itself, or its reading resolved against the conversation. */
  question: string;
  /** Words of the earlier question the resolved reading carries over (searched at lower weight). */
  carried: string;
  /** The previous reply, for "why?", "more" and the earlier answer's unit. */
  lastAnswer: string;
  /** The earlier question it leans on, as it was read then. */
  lastQuestion: string;
  /** The name the earlier reply answered with, where "it" was read as that name ("buster"). */
  named?: string;
  /**
   * The resolved reading worded as a whole English question, where `question` (what is searched)
   * is not one ("With TLS?", "How do I undo redo it in Vim?"); shown to the user as what the
   * message was read as. Absent where `question` reads as one already.
   */
  shown?: string;
  /** The earlier question as it was shown (`lastQuestion` worded as a whole question), where it differs. */
  lastShown?: string;
  /** 1-based number of the user turn it leans on; 0 when it stands alone. */
  leansOn: number;
  focus: Focus;
  /**
   * True where only a repeated noun says the message leans on the conversation (repeatsEarlierNoun):
   * a message may repeat a noun and still ask something of its own, so the reading resolved
   * against the conversation wins only where its evidence is stronger (judge.ts).
   */
  tentative?: boolean;
}

/** A conversation with something of every kind in focus: what a message could lean on at most. */
const LEANING_PROBE: Focus = {
  entities: [
    { text: 'someone', kind: 'person', salience: 1 },
    { text: 'somewhere', kind: 'place', salience: 1 },
    { text: 'something', kind: 'thing', salience: 1 },
  ],
  lastQuestion: 'something',
  lastAnswer: 'something',
};

/** Exchanges that feed the focus. */
const EXCHANGES = 4;

const MORE =
  /^(?:(?:please\s+)?(?:tell|show)\s+me\s+more(?:\s+about\s+(?:it|that|this|him|her|them))?|more|go on|continue|keep going|and then|what else|anything else|more please|what happened next|what happened then|(?:(?:can|could)\s+you\s+)?(?:please\s+)?(?:explain|elaborate)(?:\s+(?:on\s+)?(?:it|that|this))?(?:\s+(?:more|further|a bit more))?(?:\s+please)?|(?:more|further|any more)\s+details?(?:\s+please)?|in (?:more|greater) detail(?:\s+please)?)[\s.!?]*$/i;
/** Requests for an illustration of what was just said. */
const EXAMPLE =
  /^(?:(?:please\s+)?(?:show|give)\s+(?:me\s+)?(?:an?|some|one)\s+examples?|(?:an?\s+|any\s+|for\s+)?examples?|is there an example|do you have an example|what does (?:it|that) look like)(?:\s+(?:please|of (?:it|that|this)))?[\s.!?]*$/i;
const WHY =
  /^(?:why|why so|why is that|why was that|why not|how come|for what reason|what for|why did (?:he|she|they|it) do (?:that|it)|why\?+)[\s.!?]*$/i;
/** The longer openings come first: "and what about X?" is all opening, not "and" before a question. */
const ELLIPSIS_START =
  /^(?:and what about|and how about|what about|how about|and|but|also|so|or|then)\b[\s,]*/i;
const PERSON_PRONOUN = /\b(he|him|his|she|her|hers|they|them|their)\b/i;
/**
 * English third-person singular pronouns agree with their antecedent in natural gender: "she"
 * and "her" cannot stand for "king Ahasuerus" ("Who brought her up?" after "Which queen did king
 * Ahasuerus love …?" asks about Esther). "They" has no gender.
 */
const PRONOUN_GENDER: Record<string, Gender | undefined> = {
  he: 'male',
  him: 'male',
  his: 'male',
  she: 'female',
  her: 'female',
  hers: 'female',
};
/**
 * "there" as a place: at the end of a clause. Followed by a verb ("there is", "there came") it is
 * the existential "there", which points at nothing.
 */
const PLACE_PRONOUN = /\b(there)(?=\s*(?:[?.!,;]|$))/i;

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
  /** The document or topic a reply answered from (its section's top heading), undefined when it quoted no passage. */
  topicOfAnswer: (answer: string) => string | undefined = () => undefined,
  /** True for a word so common in the taught text that it cannot tell what a turn is about. */
  isCommon: (name: string) => boolean = () => false,
): FollowUp {
  const focus = emptyFocus();
  const alone = {
    kind: 'none' as const,
    question: message.trim(),
    carried: '',
    lastAnswer: '',
    lastQuestion: '',
    leansOn: 0,
    focus,
  };
  // Whether a message leans on the conversation is read from its language alone: a message that
  // would stand alone even after the fullest conversation is not replayed against this one.
  // A definite noun phrase may repeat a noun of the earlier question (repeatsEarlierNoun), which
  // only the conversation can tell: it is looked for first in what the user wrote in the turns
  // replayed (the earlier question as read is made of their words).
  if (
    history.length === 0 ||
    (rewriteWith(message, LEANING_PROBE).kind === 'none' &&
      !repeatsEarlierNoun(message, recentQuestions(history)))
  )
    return alone;
  const exchanges = exchangesOf(history);
  let leansOn = 0;
  // The turn asked last as it was shown (worded as a whole question), where that differs from
  // how it was searched: the next message is shown as read against that wording.
  let shownLast: string | undefined;
  // The question leaned on, as asked, and whether it stood alone (leaned on nothing before it).
  let leanedOn = { question: '', alone: false };
  const from = Math.max(0, exchanges.length - EXCHANGES);
  for (let at = from; at < exchanges.length; at++) {
    const { question, answer } = exchanges[at];
    decay(focus);
    const read = situational(rewriteWith(question, focus), question, leanedOn);
    // What a turn asked, as it was read: with the words it carried from the one before.
    // An ellipsis resolved to a question of its own ("How do I remove one?") keeps the words it
    // carried too: a pronoun in the next turn points at what that turn was about ("column").
    // "Why?", "more" and "an example" ask about what the turn before was about and name nothing of
    // their own: the conversation stays on that question ("show me an example" after "why not?"
    // is an example of what "why not?" asked about).
    const standalone =
      (read.kind === 'why' || read.kind === 'more' || read.kind === 'example') && focus.lastQuestion
        ? focus.lastQuestion
        : read.carried && (read.kind === 'pronoun' || read.kind === 'ellipsis')
          ? `${read.question} (${read.leanedOn ?? (partsOf(read.carried).inner || read.carried)})`
          : read.question;
    const shownStandalone =
      read.shown && (read.kind === 'pronoun' || read.kind === 'ellipsis')
        ? `${read.shown} (${read.leanedOn ?? (partsOf(read.carried).inner || read.carried || partsOf(focus.lastQuestion).asked)})`
        : undefined;
    // Small talk and replies that quote no passage ("hello", "thanks", "I don't know") leave the
    // focus as it was. A reply cut by a length limit may have lost its [n], so the passage decides.
    const topic = topicOfAnswer(answer);
    if (topic === undefined && !/\[\d+\]/.test(answer)) {
      // A question the documents did not answer still says what the conversation is about ("which
      // library does it use for that?" after it): its words stay in focus, and there is no earlier
      // answer to look around. Small talk has no such words and leaves the focus as it was.
      if (asksAboutSomething(question)) {
        noteQuestion(focus, standalone, isCommon);
        focus.lastAnswer = '';
        leansOn = at + 1;
        leanedOn = { question, alone: read.kind === 'none' };
        shownLast = shownStandalone;
      }
      continue;
    }
    noteQuestion(focus, standalone, isCommon);
    shownLast = shownStandalone;
    noteAnswer(focus, answer, kindAskedFor(shapeOf(standalone).kind), isCommon);
    if (topic) noteTopic(focus, topic);
    leansOn = at + 1;
    leanedOn = { question, alone: read.kind === 'none' };
  }
  decay(focus);
  const rewritten = situational(rewriteWith(message, focus), message, leanedOn);
  if (shownLast && rewritten.kind !== 'none') {
    const again = rewriteWith(message, { ...focus, lastQuestion: shownLast });
    const shown = again.shown ?? again.question;
    // Carrying the earlier question whole, the reading is shown as its own question: the turn it
    // leans on is shown beside it (as worded for the user), not the searched wording of that turn.
    if (shown !== rewritten.question || rewritten.carried === focus.lastQuestion) rewritten.shown = shown;
    else delete rewritten.shown;
  }
  return {
    ...rewritten,
    lastAnswer: focus.lastAnswer,
    lastQuestion: focus.lastQuestion,
    ...(shownLast && rewritten.kind !== 'none' ? { lastShown: wholeShown(shownLast) } : {}),
    leansOn: rewritten.kind === 'none' ? 0 : leansOn,
    focus,
  };
}

type Rewritten = Omit<FollowUp, 'lastAnswer' | 'lastQuestion' | 'lastShown' | 'leansOn' | 'focus'> & {
  /** The question a pronoun leaned on, whole, where the words carried are only part of it. */
  leanedOn?: string;
};

/**
 * A follow-up resolved against the conversation, without the adverb that ties it to the turn
 * before ("overwrite it anyway?", "undo that later?", "what do I use instead?"): such an adverb is
 * anaphoric as a pronoun is ("anyway" is in spite of what was said, "instead" instead of it,
 * "later" later than it), so what it stands for is the earlier turn, which the resolved reading
 * carries already. As a word to search it names nothing the documents say, and as a word they
 * never use it would count against every unit that answers.
 */
function rewriteWith(message: string, focus: Focus): Rewritten {
  const read = rewriteOnce(message, focus);
  if (read.kind !== 'pronoun' && read.kind !== 'ellipsis') return read;
  const question = withoutLinkingAdverb(read.question);
  const shown = shownReading(message, question, read.carried, focus.lastQuestion);
  return { ...read, question, ...(shown && shown !== question ? { shown } : {}) };
}

/**
 * The resolved reading worded as a whole question for the user to read, where what is searched
 * is not one: the search keeps the words the earlier rules settled on (measured: carrying them
 * differently cost held-out answers, see docs/benchmarks.md), and only its wording changes here.
 * - A verb with a pronoun object ("and redo it?") elides the earlier question's frame: "How do I
 *   redo it in Vim?" (searched: the earlier question with the verb in its topic's place).
 * - A direction word ("what about forward?") is the earlier question with its direction swapped:
 *   "Which key searches forward through the history?" (searched: "What is forward?" and the
 *   earlier question's words).
 * - "The others" without a noun to name them stays "the others" (searched: "the other").
 * - A prepositional phrase or an adverbial clause ("and with TLS?", "and when it is locked?") is an
 *   adjunct of the earlier question, said after it: "Can browsers … connect with TLS?"; a
 *   condition ("and if I want to overwrite it?") is asked "What if …?", and another fragment
 *   "What about X?".
 * Undefined where the reading reads as a question already.
 */
function shownReading(
  message: string,
  question: string,
  carried: string,
  previous: string,
): string | undefined {
  const text = message.trim();
  const rest = text.slice((ELLIPSIS_START.exec(text)?.[0] ?? '').length).trim();
  const { asked } = partsOf(previous);
  if (rest !== text && rest !== '') {
    const action = actionWithPronoun(rest, asked);
    if (action) return action;
    const direction = plain(withoutLinkingAdverb(rest).replace(/[?.!]+$/, ''));
    if (DIRECTION_ANTONYMS.has(direction)) {
      const reversed = reversedQuestion(previous, direction);
      if (reversed) return capitalise(reversed.question);
    }
  }
  let shown = question;
  const others = OTHERS.exec(text);
  if (others && /\bthe other\b(?!\s+\p{L})/iu.test(shown))
    shown = shown.replace(/\bthe other\b(?!\s+\p{L})/iu, others[0].toLowerCase());
  if (!QUESTION_START.test(shown) && !CONDITIONAL.test(shown) && carried && asked) {
    const phrase = shown.replace(/[?.!]+$/, '').trim();
    const words = phrase.split(/\s+/);
    const lead = PHRASE_ADVERBS.has(plain(words[0])) && words.length > 1 ? 1 : 0;
    const first = plain(words[lead]);
    shown =
      first === 'if'
        ? `What ${lowerFirst(phrase)}?`
        : PREPOSITIONS.has(first) || SUBORDINATORS.has(first)
          ? `${asked.replace(/[?.!]+$/, '')} ${lowerFirst(phrase)}?`
          : `What about ${lowerFirst(phrase)}?`;
  }
  return shown === question ? undefined : shown;
}

/** "A? (B)" shown as "A?" where A, a whole question, says B already ("… connect with TLS? (Can browsers … connect?)"). */
function wholeShown(standalone: string): string {
  const { asked, inner } = partsOf(standalone);
  return inner && asked.toLowerCase().includes(inner.replace(/[?.!]+$/, '').toLowerCase())
    ? asked
    : standalone;
}

/** Conjunctions that open an adverbial clause, an adjunct of the question before as a prepositional phrase is. */
const SUBORDINATORS = new Set('when whenever while unless until once because although though'.split(' '));

/** A sentence's first word in lower case, unless it is written as a name ("TLS", "Debian"). */
function lowerFirst(text: string): string {
  return text.replace(/^(\p{Lu})(\p{Ll}*)\b/u, (whole, first: string, tail: string) =>
    STOP_WORDS.has(whole.toLowerCase()) ||
    PREPOSITIONS.has(whole.toLowerCase()) ||
    PHRASE_ADVERBS.has(whole.toLowerCase())
      ? first.toLowerCase() + tail
      : whole,
  );
}

/**
 * "(And) redo it?": a verb and its pronoun object, perhaps an adverb after ("undo that again?"),
 * worded as the whole question it elides: the earlier question's frame before it ("how do I",
 * "can I") and what followed the earlier object after it ("in Vim"); "how do I" where the
 * earlier question has no such frame (a bare verb phrase asked about is asked how to do). Null
 * for any other fragment.
 */
function actionWithPronoun(fragment: string, earlierQuestion: string): string | null {
  const words = wordsOfQuestion(fragment);
  if (words.length < 2 || words.length > 4) return null;
  const verb = plain(words[0]);
  if (!/^\p{L}+$/u.test(verb) || !hasSense('verb', verb)) return null;
  if (!/^(?:it|them|that|this|these|those)$/.test(plain(words[1]))) return null;
  if (words.slice(2).some((word) => !ACTION_TAIL.has(plain(word)))) return null;
  const earlier = wordsOfQuestion(earlierQuestion);
  const at = frameOf(earlier);
  const object = at >= 0 ? objectOf(earlier, at) : null;
  const frame = at >= 0 ? earlier.slice(0, at) : ['How', 'do', 'I'];
  const after = object ? earlier.slice(object[1]).filter((word) => !/[,;:]$/.test(word)) : [];
  return `${capitalise([...frame, ...words, ...after].join(' '))}?`;
}

/** Adverbs that may follow a verb and its pronoun object in a fragment ("redo it again"). */
const ACTION_TAIL = new Set('too again also instead anyway later as well then'.split(' '));

/**
 * A question without an adverb that links it to the turn before (see rewriteWith); unchanged
 * where nothing else would be left.
 */
export function withoutLinkingAdverb(question: string): string {
  const left = question.replace(LINKING_ADVERB, '$1').trim();
  return /\p{L}/u.test(left) ? left : question;
}

/** An adverb that links a clause to what was said before, at the end of the clause (where it modifies the whole clause). */
const LINKING_ADVERB =
  /[\s,]+(?:anyway|anyhow|instead|later|afterwards?|otherwise|nevertheless|nonetheless|regardless|meanwhile|besides)\b(?=\s*(?:[?.!,;]|$))([?.!]*)/giu;

function rewriteOnce(message: string, focus: Focus): Rewritten {
  const text = message.trim();
  const none = { kind: 'none' as const, question: text, carried: '' };
  if (!focus.lastAnswer && !focus.lastQuestion) return none;
  if (MORE.test(text) && focus.lastAnswer) return { kind: 'more', question: text, carried: '' };
  if (WHY.test(text) && focus.lastAnswer) return { kind: 'why', question: text, carried: '' };
  // "An example" asks the earlier question again, for the example that shows it.
  // It is asked as it was read: a question that leaned on one before it ("how do I turn them on?
  // (are foreign keys enforced …?)") with that one's words carried, not all of them its own.
  if (EXAMPLE.test(text) && focus.lastAnswer) {
    const { asked, inner } = partsOf(focus.lastQuestion);
    return { kind: 'example', question: asked, carried: inner };
  }

  const opening = ELLIPSIS_START.exec(text)?.[0] ?? '';
  const rest = text.slice(opening.length).trim();
  // "And", "but" or "so" before a whole question ("and how do I paste it?") only joins it to the
  // conversation: the question is complete, and what it leans on is what its own pronouns point
  // at, as without the conjunction. Without such a pronoun the conjunction is all that leans on
  // the conversation, and the question is read as an ellipsis (the earlier question carried).
  const joined =
    opening !== '' &&
    CONJUNCTION.test(opening) &&
    QUESTION_START.test(rest) &&
    !isFragment(rest) &&
    (PERSON_PRONOUN.test(rest) || pointsBack(rest));
  const ellipsis = opening !== '' && rest !== '' && !joined;
  const own = joined ? rest : text;
  let question = ellipsis || joined ? rest : text;
  let replaced = false;
  // A question that names someone of its own uses its pronouns for them ("Who gave her bread ... to Elijah?").
  if (namesIn(question).length === 0) {
    // An object pronoun never stands for the subject of its own clause (that would be "himself",
    // "herself"): in "what did she bring him?" she and he are two people.
    let subject: string | undefined;
    question = question.replace(
      new RegExp(PERSON_PRONOUN, 'gi'),
      (word, _p, offset: number, whole: string) => {
        const after = whole.slice(offset + word.length);
        const lower = word.toLowerCase();
        // A plural pronoun after a plural noun of its own message stands for that noun ("which
        // file do I put my settings in so that they load?"): it leans on nothing said before.
        if (PLURAL_PRONOUNS.has(lower) && PLURAL_NOUN.test(whole.slice(0, offset))) return word;
        // "her" is an object where personForm does not read it as a possessive ("her brother").
        const object =
          lower === 'him' || lower === 'them' || (lower === 'her' && personForm(word, '', after) === '');
        const entity = referent(focus, 'person', object ? subject : undefined, PRONOUN_GENDER[lower]);
        if (!entity) return word;
        if (lower === 'he' || lower === 'she' || lower === 'they') subject = entity.text;
        replaced = true;
        return personForm(word, entity.text, after);
      },
    );
    // "it" is what the earlier question was about, which its words say better than any one name:
    // it is left in place and the earlier question's words are carried (pointsBack below).
    question = question.replace(PLACE_PRONOUN, (whole, word: string) => {
      const entity = referent(focus, 'place');
      if (!entity) return whole;
      replaced = true;
      return whole.slice(0, whole.length - word.length) + entity.text;
    });
  }
  if (ellipsis || isFragment(question)) {
    const previous = focus.lastQuestion;
    // "The other way round" reverses the direction the question before asked about.
    const reversed = REVERSAL.test(question) ? reversedQuestion(previous) : null;
    if (reversed) return { kind: 'ellipsis', ...reversed };
    // "What about X?" is the earlier question asked of X instead of its topic.
    const instead = ellipsis && !replaced && isFragment(question) ? substituted(previous, question) : null;
    if (instead) return { kind: 'ellipsis', question: instead, carried: '' };
    const other = ellipsis && !replaced ? askedInstead(previous, question) : null;
    if (other) return { kind: 'ellipsis', ...other };
    if (isFragment(question)) question = framed(question, previous);
    else question = withNounForOne(question, previous);
    return {
      kind: 'ellipsis',
      question: capitalise(question),
      carried: replaced ? '' : previous,
    };
  }
  // A pronoun or demonstrative that nothing in the message points at leans on the earlier
  // question's topic: its words carry over ("How do I undo it?" keeps what "it" was).
  if (replaced) return { kind: 'pronoun', question: capitalise(question), carried: '' };
  if (pointsBack(question)) {
    // "What if …?" puts a condition on what was just asked: its main clause is left out because it
    // is the question before ("what if it isn't merged yet?" after "how do I delete one?" asks how
    // to delete it then), so that question carries whole, its verb too, as for a demonstrative.
    const personal =
      PERSONAL_PRONOUN.test(own.replace(DUMMY_IT, ' ')) &&
      !DEMONSTRATIVE_WORD.test(own) &&
      !CONDITIONAL.test(own);
    const name = personal && IT.test(own.replace(DUMMY_IT, ' ')) ? answerName(focus) : null;
    return {
      kind: 'pronoun',
      ...(name ? { named: name } : {}),
      question: capitalise(withNounForOne(name ? own.replace(IT, name) : own, focus.lastQuestion)),
      ...(personal
        ? {
            carried:
              askedPhrase(focus.lastQuestion) ??
              objectOfOtherAction(own, focus.lastQuestion) ??
              antecedentOf(focus.lastQuestion),
            leanedOn: partsOf(focus.lastQuestion).inner || focus.lastQuestion,
          }
        : { carried: focus.lastQuestion }),
    };
  }
  if (repeatsEarlierNoun(own, focus.lastQuestion)) {
    return { kind: 'pronoun', question: capitalise(own), carried: focus.lastQuestion, tentative: true };
  }
  return none;
}

/**
 * A definite noun phrase whose noun the earlier question used ("can I undo the deletion?" after
 * "how do I delete a remote branch?", "does the backup include the log?" after "how do I make a
 * backup?"): a definite description refers to something the hearer already knows, and a noun
 * repeated from the turn just before (or the noun of its verb, which stems alike) is the
 * commonest way English refers back to it (direct anaphora). Only the noun phrase's own words
 * count, up to its first function word, and not "the same", "the other" or "the rest", which
 * are read as pro-forms elsewhere.
 */
function repeatsEarlierNoun(question: string, previous: string): boolean {
  if (!previous || !/\bthe\s/i.test(question)) return false;
  const earlier = new Set(
    (previous.match(/[\p{L}\p{N}_-]+/gu) ?? [])
      .filter((word) => word.length > 2 && !STOP_WORDS.has(word.toLowerCase()))
      .map((word) => searchTerm(word))
      .filter((term): term is string => term !== null),
  );
  for (const phrase of question.matchAll(DEFINITE_PHRASE)) {
    const words = phrase[1]!.split(/\s+/);
    if (/^(?:same|other|others|rest)$/i.test(words[0]!)) continue;
    for (const word of words) {
      if (STOP_WORDS.has(word.toLowerCase())) break;
      const term = searchTerm(word);
      if (term && earlier.has(term)) return true;
    }
  }
  return false;
}

/** What the user wrote in the turns a message is replayed against, as one text. */
function recentQuestions(history: readonly Turn[]): string {
  return exchangesOf(history)
    .slice(-EXCHANGES)
    .map((exchange) => exchange.question)
    .join(' ');
}

/** "the" and up to three words after it. */
const DEFINITE_PHRASE = /\bthe\s+(?=((?:[\p{L}\p{N}_-]+\s+){0,2}[\p{L}\p{N}_-]+))/giu;

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
  // The verb agrees with the fragment's head: "Who were Rebekah's twin sons?" (a plural noun ends
  // in -s, not in -ss, -us or -is, which are singular: "class", "status", "analysis").
  const plural = /^\p{L}*[^\Wsui]s$/u.test(head) || /^(?:children|men|women|people)$/.test(head);
  const verb = plural ? (past ? 'were' : 'are') : past ? 'was' : 'is';
  // A fragment opened by "any" or "some" asks whether such things exist: "Any downsides?" is "Are
  // there any downsides?", not "What are any downsides?".
  if (/^(?:any|some)\s+\p{L}/iu.test(text)) return `${capitalise(verb)} there ${lowerFirst(text)}?`;
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
    // A possessive "her" is followed by its noun phrase; an object "her" by a function word
    // (a particle or preposition: "took her in") or by the end of the clause.
    const next = /^\s*(\p{L}+|[?.!,;])/u.exec(after)?.[1]?.toLowerCase();
    return next && /^\p{L}/u.test(next) && !STOP_WORDS.has(next) ? possessive : name;
  }
  return name;
}

/**
 * "What about X?" read as the earlier question with X in the place of its topic, when X is a
 * name, option or code word and the earlier question has one of the same sort. Null otherwise.
 */
function substituted(previous: string, fragment: string): string | null {
  const replacement = fragment.replace(/[?.!]+$/, '').trim();
  if (!previous || replacement === '' || /\b(?:who|what|where|when|which|how|why)\b/i.test(replacement))
    return null;
  const marked = /^(?:`[^`]+`|--?[\w-]+|\S*[._/]\S*)$/.test(replacement) || /^\p{Lu}/u.test(replacement);
  const slot = marked
    ? // A name runs on over the capitalised words and numbers that follow it ("Debian 9", "Windows XP").
      // "I" is written with a capital but names the asker, no topic ("what file types can I train
      // you on?" and "what about PDF?" is not "… can PDF train you on?").
      /`[^`]+`|(?<=\s)--?[A-Za-z][\w-]*|(?<=\s)\S*\w[._/]\w\S*|(?<=\S\s+)(?!I\b)\p{Lu}[\p{L}\p{N}_-]*(?:\s+(?:\p{Lu}[\p{L}\p{N}_-]*|\p{N}[\p{N}.]*))*/u.exec(
        previous,
      )
    : null;
  // Only a name put in the place of a name is safe to substitute; any other X is searched with
  // the earlier question's words carried beside it.
  return slot ? previous.replace(slot[0], replacement) : null;
}

/**
 * Whether a message leans on something said before without naming it: a thing pronoun or a
 * demonstrative ("it", "that", "this option", "them") in a short question whose other words do
 * not name its topic.
 */
function pointsBack(question: string): boolean {
  // "that" before a clause's subject ("check that the file exists") joins clauses, it points at
  // nothing; right after the verb that opens a question ("is that a good idea?", "does this
  // work?") it is the subject itself, and points back.
  const pronouns = question.replace(
    /(^\s*(?:(?:why|how|when|where|what)\s+)?\p{L}+\s+)?\b(?:that|this)\s+(?=(?:the|a|an|my|your|our|their|it|he|she|they|we|i|you)\b)/giu,
    (whole, opening: string | undefined) =>
      opening && QUESTION_OPENERS.test(opening.trim().split(/\s+/).pop() ?? '')
        ? whole
        : opening
          ? `${opening} `
          : ' ',
  );
  // "That" after a noun phrase and before the verb of a clause ("the safety check that needs -f")
  // is a relative pronoun: it stands for the noun before it, in the same message.
  const pronounsLeft = pronouns.replace(RELATIVE_THAT, '$1 ');
  // The "it" of "is it possible to ..." stands for nothing.
  const pointing = pronounsLeft.replace(DUMMY_IT, (match) => match.replace(/\bit\b/i, ' '));
  const fused = FUSED_QUANTIFIER.test(pointing);
  const implicit = impliesWhatWasSaid(pointing);
  if (!fused && !implicit && !DEMONSTRATIVE.test(pointing)) return false;
  const words = contentWords(question.replace(DEMONSTRATIVE_PHRASE, ' '));
  // "it" stands for something more surely than "that" or "one" do, so a longer question with it
  // still leans on the conversation.
  return words <= (fused || implicit || /\bit\b/i.test(pointing) ? 5 : 3);
}

/**
 * Words that take their other term from what was just said, without a pronoun: "instead" with no
 * "of" (instead of what was said: "can I pass my own serializer instead?"), "the same" as a
 * pro-form ("does the same hold for the client?", "the same for errors?"; not "the same name",
 * which compares things of its own clause), and a comparative with no "than" after "a", "any" or
 * "which" ("is there a shorter way?", "which is faster?": shorter than the way just given).
 */
function impliesWhatWasSaid(question: string): boolean {
  if (/\binstead\b(?!\s+of\b)/i.test(question)) return true;
  if (SAME_PROFORM.test(question)) return true;
  return !/\bthan\b/i.test(question) && IMPLICIT_COMPARISON.test(question);
}

const SAME_PROFORM =
  /\bthe same\b(?=\s*(?:[?.!,]|$)|\s+(?:for|with|on|in|to|goes|go|holds?|applies|apply|works?|is|be|happen|happens)\b)/i;
const COMPARATIVES =
  'better|worse|faster|slower|quicker|shorter|longer|simpler|easier|harder|safer|cleaner|cheaper|newer|older|smaller|bigger|larger|lighter|stricter|nicer|more efficient|more secure|less verbose';
const IMPLICIT_COMPARISON = new RegExp(
  `\\b(?:a|an|any|some)\\s+(?:${COMPARATIVES})\\s+(?:way|one|option|method|approach|alternative|version|variant|command|tool|solution|choice|format|setting)s?\\b|\\bwhich\\s+(?:one\\s+)?(?:is|was|would be)\\s+(?:${COMPARATIVES})\\b`,
  'i',
);

/**
 * A relative "that": a noun phrase opened by a determiner (its words content words, no auxiliary
 * among them), then "that", then what opens a relative clause: an auxiliary or modal, a verb in
 * -s or -ed, or an adverb that stands before a verb ("that only speak"). A demonstrative "that"
 * is followed by its own noun or ends the clause ("does the script handle that case?", "… do
 * that?"), so it is not taken.
 */
const RELATIVE_THAT =
  /(\b(?:the|a|an|any|every|each|some|all|my|your|our)\s+(?:(?!(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|had)\b)[\p{L}\p{N}_-]+\s+){1,3})that\s+(?=(?:is|are|was|were|does|do|did|doesn't|don't|isn't|aren't|can|can't|could|should|would|will|won't|has|have|had|may|might|must|only|still|also|never|always|just|already|usually|often|\p{L}+(?:s|ed))\b)/giu;

/** The auxiliary or copula that opens a yes-no question. */
const QUESTION_OPENERS = /^(?:is|are|was|were|does|do|did|can|could|will|would|should|has|have|had)$/i;

/**
 * The "it" that stands for nothing: "is it possible to ...", "it is better to ...", and the
 * subject of a verb of cost or time whose real subject is the to-infinitive after it
 * (extraposition: "does it cost anything to run this service?", "how long does it take to train?").
 */
const DUMMY_IT =
  /\b(?:is|was|will|would|does|can|could|make)\s+it\s+(?:possible|necessary|safe|ok|okay|better|worth|recommended|required|allowed|easy|hard)\b|\bit(?:'s|\s+is|\s+was)\s+(?:possible|necessary|safe|better|worth|recommended|required|allowed|easy|hard)\b|\b(?:does|did|will|would|can|could|should)\s+it\s+(?:cost|take)\b(?=[^?]*\bto\s+[a-z])/i;

/** "the others" and "the rest" stand for what was not named in the turn before, as pronouns do. */
const DEMONSTRATIVE = /\b(?:it|its|that|this|these|those|them|they|one|ones|the others|the rest)\b/i;
/**
 * A quantifier of things counted without its noun (a fused head: "how many can I have?", "can I
 * have several?"), seen by what follows it, an auxiliary or the end of the question: English drops
 * the noun only where the conversation has just named it, so it points back as surely as "it"
 * does. Not "much": "how much does it cost?" asks an amount, and leaves out no noun.
 */
const FUSED_QUANTIFIER =
  /\b(?:many|several|both|few)(?=\s+(?:is|are|was|were|do|does|did|can|could|should|would|will|may|might|must|has|have|had)\b|\s*[?.!]*\s*$)/i;
/** A demonstrative with its noun ("this option", "that command") points back as a whole. */
const DEMONSTRATIVE_PHRASE = /\b(?:this|that|these|those|the other|the same)\s+\p{L}+/giu;

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

/**
 * "What about X?" / "and X?" where X is not a name: the earlier question asked again with X in
 * the place it fills, its verb and shape kept ("how do I enable foreign keys?" + "what about
 * triggers?" -> "how do I enable triggers?"). Where X goes follows from what kind of phrase it is:
 * - a prepositional phrase ("with a time limit", "on Windows") is an adjunct: it takes the place
 *   of the earlier question's phrase with the same preposition, or is added to it;
 * - a gerund ("removing one") is a new action on the same thing: "how do I" with X's verb, the
 *   earlier question's topic carried;
 * - a noun phrase takes the place of the earlier question's topic: the noun phrase with the same
 *   head noun ("the cache size" for "page size"), else the object of "how do I <verb>", else what
 *   "what is ..." / "what does ... do" asks about.
 * The earlier question as read holds the one it leaned on in parentheses ("How do I change it?
 * (What page size ...)"); both are places to look, the one asked last first, and the other is
 * carried. Null where X fits none of these places (the caller carries the earlier question).
 */
function askedInstead(previous: string, remainder: string): { question: string; carried: string } | null {
  const x = remainder
    .replace(/[?.!]+$/, '')
    .replace(/\s+(?:instead|too|as well|then)$/i, '')
    .trim();
  // A question word inside X makes X a question of its own ("for how much?"), except after a
  // gerund, whose complement it opens ("seeing who last changed each line"): that is an action.
  const gerund = /^\p{L}{3,}ing$/u.test(plain(x.split(/\s+/)[0] ?? ''));
  if (!previous || x === '' || (QUESTION_WORD.test(x) && !gerund)) return null;
  const xWords = x.split(/\s+/);
  if (xWords.length > 6) return null;
  const { asked, inner } = partsOf(previous);
  // An adverb of direction or degree before a preposition ("back in the foreground", "also on
  // Windows", "only for GET routes") modifies the prepositional phrase: the phrase is an adjunct.
  const lead = PHRASE_ADVERBS.has(plain(xWords[0])) && xWords.length > 1 ? 1 : 0;
  const first = plain(xWords[lead]);
  if (PREPOSITIONS.has(first)) {
    const replaced = withAdjunct(asked, xWords, first);
    if (replaced) return { question: replaced, carried: inner };
    // After "how do I <verb> <object> ...", the phrase says under what circumstances the same
    // action is asked now ("and for routes that don't exist?" after "how do I handle errors from
    // all routes in one place?"): it follows the object, and what followed the object before is
    // carried, weighing less (it may be a complement the action still needs: "from upgrading").
    // The question asked last comes first; where its object is a pronoun ("how do I paste it?"),
    // the pronoun stood for the object of the one it leaned on, which is then the frame ("to the
    // system clipboard" after "how do I copy a line?", "how do I paste it?"), and the phrase
    // carries nothing of the pronoun question: that one asked another action of the same thing
    // ("paste" is not what "to the system clipboard" asks).
    for (const [text, other] of [
      [asked, inner],
      [inner, ''],
    ]) {
      const words = wordsOfQuestion(text);
      const verb = frameOf(words);
      const object = verb >= 0 ? objectOf(words, verb) : null;
      if (object) {
        return {
          question: `${[...words.slice(0, object[1]), ...xWords].join(' ')}?`,
          carried: [words.slice(object[1]).join(' '), other].filter(Boolean).join(' '),
        };
      }
    }
    // Otherwise the phrase is what the message adds: its words are searched as the message's
    // own and the earlier question's are carried beside them, weighing less.
    return { question: `${capitalise(x)}?`, carried: previous };
  }
  if (/^\p{L}{3,}ing$/u.test(first)) {
    // The action is new and its object is the earlier one ("removing one" after "rename a column").
    for (const text of [asked, inner]) {
      const words = wordsOfQuestion(text);
      const frame = frameOf(words);
      if (frame < 0) continue;
      const object = objectOf(words, frame);
      const verb = baseVerb(xWords[0]);
      return {
        question: `${[...words.slice(0, frame), verb, ...xWords.slice(1)].join(' ')}?`,
        carried: object ? words.slice(object[0], object[1]).join(' ') : text,
      };
    }
    return null;
  }
  // Asked again in the frame of the question asked last, the one it leaned on is carried (its
  // pronoun stood for that one's topic). Asked again in the frame of the one it leaned on, the
  // question asked last had no topic of its own to give ("how do I turn it off again?": its
  // pronoun stood for the topic X now replaces), and nothing is carried.
  for (const [text, other] of [
    [asked, inner],
    [inner, ''],
  ]) {
    if (!text) continue;
    const replaced = withTopic(wordsOfQuestion(text), xWords);
    if (replaced) return { question: replaced, carried: other };
  }
  // Where neither question has a topic phrase to replace and the one asked last had a pronoun for
  // it ("can I replace it?" after "which library validates request data?"), the pronoun is the
  // topic's place: "and the serializer?" asks the same of X ("Can I replace the serializer?").
  // X replaces what the pronoun stood for, so nothing of the question that gave it is carried.
  if (inner) {
    const words = wordsOfQuestion(asked);
    for (let at = words.length - 1; at > 0; at--) {
      if (!TOPIC_PRONOUNS.has(plain(words[at]))) continue;
      return {
        question: `${capitalise([...words.slice(0, at), ...xWords, ...words.slice(at + 1)].join(' '))}?`,
        carried: '',
      };
    }
  }
  return null;
}

/**
 * Whether the "it" of a message continues the "it" of the question it would lean on, where that
 * one pointed at nothing said: "Can I run it without Redis?" asked of the product the documents
 * are about (the object of its first verb, no thing named before it). A pronoun repeated across
 * turns keeps its referent, so "Does it cost anything?" asks about that product too, not about
 * running without Redis: it stands alone. Only where "it" is the message's one word pointing
 * back, and not the object of a verb that takes an action ("how do I undo it?" undoes the earlier
 * action).
 */
function continuesSituationalIt(message: string, earlier: string): boolean {
  const words = wordsOfQuestion(message).map(plain);
  if (
    !words.includes('it') ||
    words.some((word) => OTHER_POINTERS.has(word) || ACTION_OBJECT_VERBS.has(word))
  )
    return false;
  const earlierWords = wordsOfQuestion(earlier);
  const at = earlierWords.findIndex((word) => plain(word) === 'it');
  if (at < 0) return false;
  const named = earlierWords.slice(0, at).filter(isContent);
  return named.length === 0 || (named.length === 1 && named[0] === earlierWords[at - 1]);
}

/** A turn whose "it" continues the situational "it" of the one it leaned on, read as standing alone. */
function situational(
  read: Rewritten,
  question: string,
  leanedOn: { question: string; alone: boolean },
): Rewritten {
  if (read.kind !== 'pronoun' || !leanedOn.alone || !continuesSituationalIt(question, leanedOn.question))
    return read;
  return { kind: 'none', question: question.trim(), carried: '' };
}

/** Words that point back other than "it". */
const OTHER_POINTERS = new Set('that this these those they them their'.split(' '));

/** Third-person plural pronouns. */
const PLURAL_PRONOUNS = new Set(['they', 'them', 'their']);
/**
 * A plural noun phrase: a determiner or possessive, perhaps a modifier, and a noun in -s (not -ss,
 * -us or -is, which are singular: "the class", "the status", "the analysis").
 */
const PLURAL_NOUN =
  /\b(?:the|my|your|our|these|those|all|some|both|many|several|its|his|her|their)\s+(?:\p{L}+\s+)?\p{L}*[^\Wsui]s\b/iu;

/** Conjunctions that join a message to the conversation: before a whole question they add no ellipsis. */
const CONJUNCTION = /^(?:and|but|also|so|or|then)\b[\s,]*$/i;

/**
 * What a pronoun stands for in "how do I <verb> it …?" asked after "how do I <another verb> <object>
 * …?": the earlier object with what followed it, without the earlier verb. The new verb is a new
 * action on the same thing ("how do I paste it?" after "how do I copy a line?": "it" is the line,
 * and copying is no longer asked), so the earlier verb would only draw the units about the
 * earlier action. Where the earlier question leaned on one before it ("is there a faster one?
 * (how do I check a file?)"), what it asked of that action goes with the action, and the object
 * comes from the one it leaned on. A causative verb ("make a script exit …", "let it run") takes
 * a clause, not a thing, and a pronoun after it may stand for the whole state: null then, as for
 * any other question (the caller carries the earlier question).
 */
function objectOfOtherAction(message: string, standalone: string): string | null {
  const words = wordsOfQuestion(message);
  const verb = frameOf(words);
  // A message of another form ("what level does it use?", "where does it keep them?") asks
  // something else of the same thing: its "it" is the thing, not the earlier action, unless the
  // message names that action again ("is it turned on?" after "how do I turn on ...?").
  // Where the earlier question leaned on one before it, what the pronoun stands for is that one's
  // topic with what the earlier question added (antecedentOf).
  const terms = new Set((verb >= 0 ? [words[verb]] : words).map((word) => searchTerm(plain(word))));
  const { asked, inner } = partsOf(standalone);
  if (verb < 0 && inner) return null;
  for (const text of [asked, inner]) {
    const earlier = wordsOfQuestion(text);
    const at = frameOf(earlier);
    if (at < 0) continue;
    if (CAUSATIVES.has(plain(earlier[at])) || terms.has(searchTerm(plain(earlier[at])))) return null;
    const object = objectOf(earlier, at);
    if (!object) continue;
    // A verb whose object is an action, not a thing ("undo it", "cancel it", "repeat it"), takes
    // the earlier action whole: "how do I undo it?" after "how do I stage a file?" undoes the
    // staging, so the earlier verb is what the documents name the undoing by ("unstage", "the
    // opposite of git add").
    if (verb >= 0 && ACTION_OBJECT_VERBS.has(plain(words[verb]))) return earlier.slice(at).join(' ');
    return earlier.slice(object[0]).join(' ');
  }
  return null;
}

/** Pronouns that stand in a topic's place (object or subject): "replace it", "does it ...". */
const TOPIC_PRONOUNS = new Set('it them'.split(' '));

const QUESTION_WORD = /\b(?:who|what|where|when|which|how|why)\b/i;

/** Prepositions that open an adjunct of a question: "with a time limit", "on Windows", "for routes that ...". */
const PREPOSITIONS = new Set(
  'with without for to in on from into under over after before at by via inside outside within through across behind during'.split(
    ' ',
  ),
);
/** Adverbs that can stand before a prepositional phrase and modify it. */
const PHRASE_ADVERBS = new Set('back also even only just still again right straight'.split(' '));
const DETERMINERS = new Set(
  'a an the my your our their its this that these those some any every each'.split(' '),
);
/** Pronouns that a noun phrase position may hold instead of a topic: the topic is then elsewhere. */
const PRONOUN_OBJECTS = new Set('it them that this these those one ones something i me you we'.split(' '));
/**
 * Words that say which value of the topic is asked ("the default page size", "the maximum
 * length"): they belong to the question's frame, so they stay when another topic takes its place.
 */
const VALUE_WORDS = new Set('default defaults maximum minimum largest smallest current initial'.split(' '));

/**
 * What a personal pronoun in the next message stands for, from the question asked last as it was
 * read ("A? (B)" where A leaned on B). "It" and "them" stand for things; a demonstrative may stand
 * for an action or an event too ("when does that fail?" after "how do I remove one?", "which
 * library does it use for that?" after "how do I test my routes?"), and a message with one keeps
 * the whole question. Where A's own pronoun stood for B's topic ("why should I avoid it?" after
 * "what does the AUTOINCREMENT keyword do?"), A's verbs said what was asked of that thing and are
 * not it ("what happens when it runs out of numbers?" is about AUTOINCREMENT, not about avoiding
 * it). So B carries over, with the noun phrases A added ("extension" of "how do I change the
 * extension it gets?"); A's verbs are the words right after a subject pronoun ("I avoid", "it
 * gets").
 */
function antecedentOf(standalone: string): string {
  const { asked, inner } = partsOf(standalone);
  if (!inner) return standalone;
  const words = wordsOfQuestion(asked);
  const added = words
    .filter((word, at) => isContent(word) && !(at > 0 && SUBJECT_PRONOUNS.has(plain(words[at - 1]))))
    .map(plain);
  return added.length > 0 ? `${inner} — ${added.join(' ')}` : inner;
}

/**
 * The name the earlier reply gave for what its question asked, which a later "it" stands for. A
 * "what is the X of Y?" or "which X …?" question asks for a name, and a reply that opens by giving
 * it as the subject of a copula ("buster (Debian 10) was Andy's pet dog") makes that name the most
 * salient thing of the exchange: centering theory ranks the subject of the last utterance first as
 * what the next pronoun stands for. The name is new to the conversation, so the earlier question's
 * words alone do not reach what is said of it ("Which toy was it named after?" after "What was the
 * codename of Debian 10?" asks about buster): "it" is replaced by the name, and the earlier
 * question is carried as for any pronoun. Null where the reply only comes closest or opens
 * otherwise, or where the name is already in the earlier question.
 */
function answerName(focus: Focus): string | null {
  const { asked } = partsOf(focus.lastQuestion);
  if (!/^\s*(?:what|which)\b/i.test(asked)) return null;
  const kind = shapeOf(asked).kind;
  if (kind !== 'thing' && kind !== 'choice') return null;
  const opening = ANSWER_SUBJECT.exec(focus.lastAnswer.replace(/^\s*[-*]\s+/, ''));
  const name = opening?.[1] ?? opening?.[2];
  if (!name) return null;
  const bare = plain(name);
  const term = searchTerm(bare);
  if (!term || STOP_WORDS.has(bare) || PRONOUN_OBJECTS.has(bare)) return null;
  const said = wordsOfQuestion(focus.lastQuestion).map((word) => searchTerm(plain(word)));
  return said.includes(term) ? null : name;
}

/**
 * The phrase a "what X …?" / "which X …?" question asks about: its answer is an X ("What page size
 * does a new database get?" is answered with a page size), and a later "it" ("how do I change
 * it?") stands for that X, not for the rest of the question ("a new database"). Null for other
 * questions and for a question that itself leaned back.
 */
function askedPhrase(standalone: string): string | null {
  const { asked, inner } = partsOf(standalone);
  if (inner) return null;
  const words = wordsOfQuestion(asked);
  if (!/^(?:what|which)$/i.test(plain(words[0] ?? ''))) return null;
  const end = words.findIndex((word, at) => at > 0 && AUX_WORDS.has(plain(word)));
  if (end < 2 || end > 4) return null;
  const phrase = words.slice(1, end).filter(isContent);
  return phrase.length > 0 ? phrase.join(' ') : null;
}

const AUX_WORDS = new Set('is are was were do does did can could should would will has have had'.split(' '));

/** The thing pronoun "it" (not "its"), where a name can take its place. */
const IT = /\bit\b/i;

/** A reply opening with one name as the subject of a copula, a parenthesis allowed between: "buster (Debian 10) was …", "`onSend` is …". */
const ANSWER_SUBJECT =
  /^(?:`([^`\s]{2,40})`|([\p{L}\p{N}_][\p{L}\p{N}_.-]*))\s+(?:\([^)]{1,60}\)\s+)?(?:is|was|are|were)\b/u;

const SUBJECT_PRONOUNS = new Set('i we you it they he she'.split(' '));
/** Pronouns that stand for things said before (a demonstrative may stand for an action too). */
const PERSONAL_PRONOUN = /\b(?:it|its|they|them|their)\b/i;
const DEMONSTRATIVE_WORD = /\b(?:that|this|these|those)\b/i;

/**
 * "(And) the other way round?", "the opposite direction?": the question before with its direction
 * reversed. English says direction with a closed set of antonym pairs ("backward" / "forward",
 * "up" / "down"), so the reversal is the earlier question with its direction word swapped for
 * the other of its pair ("how do I search backward through the history?" -> "… forward …"); the
 * words the earlier question carried stay carried. Null where it names no direction.
 */
function reversedQuestion(
  previous: string,
  /** The direction the message names ("what about forward?"); any direction word for "the other way round". */
  named?: string,
): { question: string; carried: string } | null {
  const { asked, inner } = partsOf(previous);
  const words = asked.split(/(\s+)/);
  for (const [at, word] of words.entries()) {
    const bare = plain(word);
    const other = DIRECTION_ANTONYMS.get(bare);
    if (!other || (named !== undefined && other !== named)) continue;
    words[at] = word.replace(new RegExp(bare, 'i'), other);
    return { question: words.join(''), carried: inner };
  }
  return null;
}

/** A fragment that asks for the reverse of what was asked. */
const REVERSAL =
  /^(?:the\s+)?(?:other\s+way(?:\s+(?:round|around))?|opposite\s+(?:way|direction)|reverse(?:\s+direction)?)[\s?.!]*$/i;

const DIRECTION_ANTONYMS = new Map(
  [
    ['backward', 'forward'],
    ['backwards', 'forwards'],
    ['up', 'down'],
    ['upward', 'downward'],
    ['upwards', 'downwards'],
    ['left', 'right'],
    ['before', 'after'],
    ['previous', 'next'],
    ['older', 'newer'],
    ['first', 'last'],
  ].flatMap(([one, other]) => [
    [one, other],
    [other, one],
  ]),
);

/** A question that is only a condition ("what if …?", "what happens if …?"): its main clause is the question before. */
const CONDITIONAL = /^\s*what\s+(?:happens\s+)?if\b/i;

/** "A? (B)": the question asked last and the one it leaned on. */
function partsOf(standalone: string): { asked: string; inner: string } {
  const match = /^(.*?[?.!])\s*\((.+)\)\s*$/s.exec(standalone);
  return match ? { asked: match[1], inner: match[2] } : { asked: standalone, inner: '' };
}

function wordsOfQuestion(text: string): string[] {
  return text
    .trim()
    .replace(/[?.!]+$/, '')
    .split(/\s+/)
    .filter(Boolean);
}

/** A word lower-cased without the punctuation around it ("size?" -> "size"). */
function plain(word: string): string {
  return word.toLowerCase().replace(/^[^\p{L}\p{N}_-]+|[^\p{L}\p{N}_-]+$/gu, '');
}

/** A word that can name a topic: not a function word, a pronoun or a question word. */
function isContent(word: string): boolean {
  const lower = plain(word);
  return lower !== '' && !STOP_WORDS.has(lower) && !PRONOUN_OBJECTS.has(lower) && !/[?.!,;:]$/.test(word);
}

/** The earlier question with the prepositional phrase in place of its own with the same preposition; null when it has none. */
function withAdjunct(asked: string, phrase: readonly string[], preposition: string): string | null {
  const words = wordsOfQuestion(asked);
  for (let at = words.length - 1; at > 0; at--) {
    if (plain(words[at]) === preposition) return `${[...words.slice(0, at), ...phrase].join(' ')}?`;
  }
  return null;
}

/** Index of the verb of "how do I <verb> ..." / "how to <verb>", -1 when the question is not of that form. */
function frameOf(words: readonly string[]): number {
  const lower = words.slice(0, 4).map(plain);
  if (lower[0] !== 'how') return -1;
  if (lower[1] === 'to') return words.length > 2 ? 2 : -1;
  if (
    /^(?:do|can|could|should|would|may|might)$/.test(lower[1] ?? '') &&
    /^(?:i|we|you|one)$/.test(lower[2] ?? '')
  )
    return words.length > 3 ? 3 : -1;
  return -1;
}

/** The object noun phrase of "how do I <verb> ...": the words after the verb and its determiner; null for a pronoun. */
function objectOf(words: readonly string[], verb: number): [number, number] | null {
  let start = verb + 1;
  // The particle of a phrasal verb may stand before its object ("turn on logging", "back up
  // the database"): it belongs to the verb.
  if (start < words.length - 1 && PARTICLES.has(plain(words[start]))) start++;
  while (start < words.length && DETERMINERS.has(plain(words[start]))) start++;
  const span = runFrom(words, start);
  // A causative verb ("make a script exit", "let the job run") takes an object and then a bare
  // verb: the object ends before the last word of the run when that word can be a verb.
  if (span && CAUSATIVES.has(plain(words[verb])) && span[1] - span[0] >= 2) {
    const last = plain(words[span[1] - 1]);
    if (hasSense('verb', last)) return [span[0], span[1] - 1];
  }
  return span;
}

const CAUSATIVES = new Set('make let have help'.split(' '));
/**
 * Verbs whose object is an action or event rather than a thing: a pronoun after them stands for
 * what was done (a closed set of aspectual and reversal verbs).
 */
const ACTION_OBJECT_VERBS = new Set('undo redo revert reverse cancel abort repeat retry'.split(' '));
/** Particles of phrasal verbs ("turn on", "set up", "shut down"). */
const PARTICLES = new Set('on off up down out'.split(' '));

/** The content words from `start` on, as a span; null when the first is not one. */
function runFrom(words: readonly string[], start: number): [number, number] | null {
  let end = start;
  while (end < words.length && isContent(words[end])) end++;
  // A word ending its clause ("name," in "name, then") ends the phrase after it.
  if (
    end < words.length &&
    /[,;:]$/.test(words[end]) &&
    plain(words[end]) !== '' &&
    !STOP_WORDS.has(plain(words[end]))
  )
    end++;
  return end > start ? [start, end] : null;
}

/**
 * The earlier question with the noun phrase X in place of its topic: the phrase with X's head
 * noun (English puts the head last: "page size", "cache size"), else the object of "how do I
 * <verb>", else the subject of "what is / what does ...". Words naming which value is asked
 * ("default") stay. Null when none is found.
 */
function withTopic(words: readonly string[], x: readonly string[]): string | null {
  const span = sameHead(words, x) ?? objectSpan(words) ?? subjectOf(words);
  if (!span) return null;
  let [start, end] = span;
  while (start < end && VALUE_WORDS.has(plain(words[start]))) start++;
  if (start >= end) return null;
  const before = span[0] > 0 ? plain(words[span[0] - 1]) : '';
  const xDetermined = DETERMINERS.has(plain(x[0]));
  let put = x;
  // X is a whole noun phrase, determiner and all ("the pipelines", "triggers"): it replaces the
  // earlier one's determiner too, unless words of the frame stand between ("the default ...") or
  // the determiner is the question word ("what page size" -> "what cache size").
  if (DETERMINERS.has(before) && start === span[0]) start--;
  else if (xDetermined && (DETERMINERS.has(before) || before === 'what' || before === 'which'))
    put = x.slice(1);
  return `${capitalise([...words.slice(0, start), ...put, ...words.slice(end)].join(' '))}?`;
}

function objectSpan(words: readonly string[]): [number, number] | null {
  const verb = frameOf(words);
  if (verb < 0) return null;
  const object = objectOf(words, verb);
  if (object) return object;
  // A verb whose object is a person ("train you on my documents", "show me the logs of a job")
  // says what it is about in the phrase after that pronoun: the noun phrase of a preposition
  // ("on my documents"), or the second object ("the logs ...").
  const pronoun = plain(words[verb + 1] ?? '');
  if (!PERSON_OBJECTS.has(pronoun)) return null;
  let start = verb + 2;
  if (PREPOSITIONS.has(plain(words[start] ?? ''))) start++;
  while (start < words.length && DETERMINERS.has(plain(words[start]))) start++;
  return runFrom(words, start);
}

/** Object pronouns that stand only for people ("them" may be things): after a verb they are its person, not what it is about. */
const PERSON_OBJECTS = new Set('me you us him her'.split(' '));

/** The noun phrase of the earlier question whose head is X's head: the word not followed by another content word. */
function sameHead(words: readonly string[], x: readonly string[]): [number, number] | null {
  const head = searchTerm(plain(x[x.length - 1]));
  if (!head) return null;
  const verb = frameOf(words);
  for (let at = words.length - 1; at > 0; at--) {
    if (searchTerm(plain(words[at])) !== head || !isContent(words[at])) continue;
    if (at + 1 < words.length && isContent(words[at + 1])) continue;
    let start = at;
    while (start - 1 > Math.max(0, verb) && isContent(words[start - 1])) start--;
    return [start, at + 1];
  }
  return null;
}

/** What "what is the X?", "what does the X do?", "which are the X?" ask about. */
function subjectOf(words: readonly string[]): [number, number] | null {
  const lower = words.slice(0, 2).map(plain);
  if (
    !/^(?:what|which|who)$/.test(lower[0] ?? '') ||
    !/^(?:is|are|was|were|does|do|did)$/.test(lower[1] ?? '')
  )
    return null;
  let start = 2;
  while (start < words.length && DETERMINERS.has(plain(words[start]))) start++;
  return runFrom(words, start);
}

/**
 * The base form of a gerund for "how do I <verb>": "removing" -> "remove", "running" -> "run".
 * English drops a final "e" before "-ing" and doubles a final consonant after a short vowel;
 * WordNet tells which was done where it is installed; without it the gerund is kept (its search
 * term is the same).
 */
function baseVerb(gerund: string): string {
  const lower = gerund.toLowerCase();
  const stem = lower.slice(0, -3);
  const candidates = [stem, `${stem}e`, /(.)\1$/.test(stem) ? stem.slice(0, -1) : ''].filter(Boolean);
  return candidates.find((candidate) => hasSense('verb', candidate)) ?? lower;
}

/**
 * "one" after "which", "another", "the other", "this", "that" or a comparative ("a faster one")
 * stands for a noun said before: the noun the earlier "which X" / "what X" question asked about
 * ("which one runs last?" after "which hook runs first?" asks which hook). Unchanged when the
 * earlier question named no such noun.
 */
function withNounForOne(question: string, previous: string): string {
  const { asked, inner } = partsOf(previous);
  const found = shapeOf(asked).focus ?? (inner ? shapeOf(inner).focus : null);
  const noun = found && !STOP_WORDS.has(found) ? found : null;
  // "The others" and "the rest" stand for the members of a set said before that were not named:
  // their own word says nothing of what they are ("others" is no topic to search for), so they
  // become "the other" with the earlier "which X" noun where there is one.
  const rest = question.replace(OTHERS, (_whole, the: string) =>
    noun ? `${the} other ${noun}` : `${the} other`,
  );
  if (!ONE.test(rest) || !noun) return rest;
  return rest.replace(ONE, (_whole, before: string) => `${before} ${noun}`);
}

const OTHERS = /\b(the)\s+(?:others|rest)\b(?!\s+of\b)/i;

const ONE = /\b(which|another|other|this|that|\p{L}{3,}er)\s+one\b(?!\s+of\b)/iu;

/**
 * Whether a user turn asks about something: a question (an interrogative opening or a question
 * mark) with at least two words of its own that are not about the two speakers ("who are you?",
 * "what can you do?" and "thanks" are not).
 */
function asksAboutSomething(question: string): boolean {
  if (!/\?\s*$/.test(question) && !INTERROGATIVE.test(question)) return false;
  const words = question
    .replace(/['’]s\b/g, '')
    .replace(/[?.!,]/g, ' ')
    .split(/\s+/)
    .filter((word) => {
      const lower = word.toLowerCase();
      return lower.length > 2 && !QUESTION_WORDS.has(lower) && !STOP_WORDS.has(lower) && !SPEAKERS.has(lower);
    });
  return words.length >= 2;
}

const INTERROGATIVE =
  /^(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|do|does|did|can|could|should|would|will)\b/i;
const SPEAKERS = new Set('you your yours yourself me mine myself'.split(' '));

/**
 * A turn's words quoted for `thought` (what a reading carried, the turn it leans on). A turn that
 * itself leaned on the one before carries that one in brackets, as `resolveFollowUp` writes it
 * ("How do I close all the others? (How do I split the window side by side?)"): said as two
 * quotations, not as brackets inside a quotation inside brackets.
 */
export function quotedTurn(carried: string): string {
  const chained = /^(.+?) \((.+)\)$/.exec(carried);
  return chained ? `"${chained[1]}", after "${chained[2]}"` : `"${carried}"`;
}
