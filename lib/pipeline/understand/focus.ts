import type { Turn } from '../../sessions/index.js';
import { STOP_WORDS } from '../../text/index.js';
import { nearestPrefaceOf } from '../wording.js';

/** What kind of thing an entity in focus is, as far as the conversation tells. */
export type EntityKind = 'person' | 'place' | 'thing' | 'unknown';

/** Something the conversation is about, and how salient it is now. */
export interface FocusEntity {
  text: string;
  kind: EntityKind;
  salience: number;
  /** Natural gender, where a noun the text binds to the name says it ("king Ahasuerus", "Esther the queen"). */
  gender?: Gender;
}

/** The natural gender English third-person singular pronouns agree with. */
export type Gender = 'male' | 'female';

/** The focus of a conversation: entities by salience, and the topic words of the last question. */
export interface Focus {
  entities: FocusEntity[];
  /** Content words of the last (rewritten) user question, for an ellipsis ("and which one?"). */
  lastQuestion: string;
  /** The last assistant reply, for "why?" and "tell me more". */
  lastAnswer: string;
}

/** Salience kept from one exchange to the next. */
const DECAY = 0.5;
const ANSWER_WEIGHT = 4;
const QUESTION_NAME_WEIGHT = 2;
const REPLY_NAME_WEIGHT = 1;
const TOPIC_WEIGHT = 2.5;
/** Names of a reply beyond the first few are context, not focus. */
const REPLY_NAMES = 3;

/** A short answer put first: "Naomi." or "Moab." at the start of a reply. */
const LEAD = /^((?:\p{Lu}[\p{L}'’-]*)(?:\s+(?:of\s+)?\p{Lu}[\p{L}'’-]*){0,3})\.(?:\s|$)/u;
/** A capitalised word inside a sentence (not after a sentence end), or `code`. */
const INNER_NAME =
  /(?<=[\p{L}\p{N},;:)]\s+)(\p{Lu}[\p{Ll}'’-]+(?:\s+\p{Lu}[\p{Ll}'’-]+)*)|`([^`\s]{2,40})`/gu;
/** Capitalised words that are interjections or the pronoun "I", never a name. */
const NOT_NAMES = new Set(['i', 'ok', 'yes', 'no']);

/** Text written as code. */
const CODE_SPAN = /`([^`\s]{2,40})`/g;

/** A metavariable in angle brackets: `<slot>`, `<branch-name>`. */
const PLACEHOLDER = /^<[^<>]+>$/;

/** A fresh focus (no conversation yet). */
export function emptyFocus(): Focus {
  return { entities: [], lastQuestion: '', lastAnswer: '' };
}

/** Lowers every entity's salience by one exchange. */
export function decay(focus: Focus): void {
  for (const entity of focus.entities) entity.salience *= DECAY;
}

/** Adds what a user question is about: the names it uses. */
export function noteQuestion(focus: Focus, question: string, isCommon: (name: string) => boolean): void {
  focus.lastQuestion = question;
  for (const name of namesIn(question)) {
    if (!isCommon(name)) add(focus, name, 'unknown', QUESTION_NAME_WEIGHT, genderIn(question, name));
  }
}

/**
 * Nouns of natural gender that English puts beside a name as a title or in apposition ("king
 * Ahasuerus", "Esther the queen", "his brother Benjamin"): they say which pronoun can stand for
 * the name.
 */
const MALE_NOUNS =
  'king|prince|lord|father|brother|son|husband|man|uncle|nephew|mr|sir|emperor|duke|priest|prophet|boy';
const FEMALE_NOUNS =
  'queen|princess|lady|mother|sister|daughter|wife|woman|aunt|niece|mrs|ms|empress|duchess|prophetess|girl|widow|maid';

/** The gender a noun bound to the name in the text gives it: right before it, or after it with "the". */
function genderIn(text: string, name: string): Gender | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const bound = (nouns: string) =>
    new RegExp(
      `\\b(?:${nouns})\\s+${escaped}\\b|\\b${escaped},?\\s+(?:the|his|her)\\s+(?:${nouns})\\b`,
      'i',
    ).test(text);
  if (bound(MALE_NOUNS)) return 'male';
  if (bound(FEMALE_NOUNS)) return 'female';
  return undefined;
}

/**
 * The gender of whoever a "who" question asks for by a role of natural gender ("Who was
 * Rebekah's brother?", "Who was the father of Jacob?", "Who were her sons?"): the short answer
 * names who fills the role ("Laban."), so a later "she" or "her" cannot stand for that name
 * ("And her twin sons?" asks about Rebekah's, not Laban's).
 */
function roleGender(question: string): Gender | undefined {
  const role =
    /^\s*who\s+(?:is|was|are|were)\s+(?:the\s+|\p{L}+['’]s?\s+|his\s+|her\s+|their\s+)(?:\p{L}+\s+)?(\p{L}+)(?:\s+of\b|\s*\?)/iu.exec(
      question,
    )?.[1];
  if (!role) return undefined;
  const singular = role.toLowerCase().replace(/s$/, '');
  if (
    new RegExp(`^(?:${MALE_NOUNS})$`).test(singular) ||
    new RegExp(`^(?:${MALE_NOUNS})$`).test(role.toLowerCase())
  )
    return 'male';
  if (
    new RegExp(`^(?:${FEMALE_NOUNS})$`).test(singular) ||
    new RegExp(`^(?:${FEMALE_NOUNS})$`).test(role.toLowerCase())
  )
    return 'female';
  return undefined;
}

/** Adds what a reply was about: its short answer (of the kind the question asked), then the names it quotes. */
export function noteAnswer(
  focus: Focus,
  answer: string,
  askedFor: EntityKind,
  isCommon: (name: string) => boolean,
): void {
  focus.lastAnswer = answer;
  const lead = LEAD.exec(answer)?.[1];
  if (lead && !NOT_NAMES.has(lead.toLowerCase()))
    add(focus, lead, askedFor, ANSWER_WEIGHT, roleGender(focus.lastQuestion));
  // Names the question already gave are not new in the reply.
  const asked = focus.lastQuestion.toLowerCase();
  // The names of the first quoted passage; later citations are context.
  // A name written in a large share of the text (a book's deity, a product's own name) is
  // everywhere; it cannot be what one turn is about.
  // The closest-passage reply opens with the service's own words: what follows them starts a
  // sentence ("Closest match (…): Always display …" names no one called Always).
  const preface = nearestPrefaceOf(answer);
  const quoted = (preface ? answer.slice(preface.length) : answer).split('[1]')[0];
  const names = namesIn(quoted).filter((name) => !isCommon(name));
  // What a reply writes as code (`remoteBranch`, `onSend`) is an identifier: a thing, never the
  // person a "he", "she" or "them" stands for.
  const code = new Set([...quoted.matchAll(CODE_SPAN)].map((match) => match[1]));
  for (const name of names.slice(0, REPLY_NAMES)) {
    if (!asked.includes(name.toLowerCase()))
      add(focus, name, code.has(name) ? 'thing' : 'unknown', REPLY_NAME_WEIGHT, genderIn(quoted, name));
  }
}

/** Adds the topic a reply answered from (the title of its document or section). */
export function noteTopic(focus: Focus, topic: string): void {
  add(focus, topic, 'thing', TOPIC_WEIGHT);
}

/** The most salient entity a pronoun of this kind can stand for. */
export function referent(
  focus: Focus,
  wants: 'person' | 'place' | 'thing',
  /** An entity the pronoun cannot stand for (the subject of its own clause, for an object pronoun). */
  not?: string,
  /** The pronoun's gender ("he", "she"): it cannot stand for a name the text gives the other one. */
  gender?: Gender,
): FocusEntity | undefined {
  const fits = (entity: FocusEntity) =>
    entity.text === not || (gender && entity.gender && entity.gender !== gender)
      ? false
      : wants === 'person'
        ? entity.kind === 'person' || entity.kind === 'unknown'
        : wants === 'place'
          ? entity.kind === 'place' || entity.kind === 'unknown'
          : entity.kind === 'thing';
  return [...focus.entities].filter(fits).sort((a, b) => b.salience - a.salience)[0];
}

/** Names written in a text: capitalised words inside sentences, and `code`. */
export function namesIn(text: string): string[] {
  const names: string[] = [];
  for (const match of text.replace(/\[\d+\]/g, '').matchAll(INNER_NAME)) {
    const name = (match[1] ?? match[2]).replace(/['’]s$/u, '');
    if (NOT_NAMES.has(name.toLowerCase()) || STOP_WORDS.has(name.toLowerCase())) continue;
    // A placeholder of the syntax a text describes (`<slot>`, `<name>`) stands for whatever the
    // reader puts in its place, not for something the conversation is about.
    if (PLACEHOLDER.test(name)) continue;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function add(focus: Focus, text: string, kind: EntityKind, weight: number, gender?: Gender): void {
  const existing = focus.entities.find((entity) => entity.text.toLowerCase() === text.toLowerCase());
  if (existing) {
    existing.salience += weight;
    if (existing.kind === 'unknown') existing.kind = kind;
    existing.gender ??= gender;
    return;
  }
  focus.entities.push({ text, kind, salience: weight, ...(gender ? { gender } : {}) });
}

/** The turns of a conversation as (question, answer) exchanges, oldest first. */
export function exchangesOf(history: readonly Turn[]): { question: string; answer: string }[] {
  const exchanges: { question: string; answer: string }[] = [];
  for (const turn of history) {
    if (turn.role === 'user') exchanges.push({ question: turn.content, answer: '' });
    else if (exchanges.length > 0) exchanges[exchanges.length - 1].answer = turn.content;
  }
  return exchanges;
}
