import type { Turn } from '../../sessions/index.js';
import { STOP_WORDS } from '../../text/index.js';

/** What kind of thing an entity in focus is, as far as the conversation tells. */
export type EntityKind = 'person' | 'place' | 'thing' | 'unknown';

/** Something the conversation is about, and how salient it is now. */
export interface FocusEntity {
  text: string;
  kind: EntityKind;
  salience: number;
}

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
    if (!isCommon(name)) add(focus, name, 'unknown', QUESTION_NAME_WEIGHT);
  }
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
  if (lead && !NOT_NAMES.has(lead.toLowerCase())) add(focus, lead, askedFor, ANSWER_WEIGHT);
  // Names the question already gave are not new in the reply.
  const asked = focus.lastQuestion.toLowerCase();
  // The names of the first quoted passage; later citations are context.
  // A name written in a large share of the text (a book's deity, a product's own name) is
  // everywhere; it cannot be what one turn is about.
  const names = namesIn(answer.split('[1]')[0]).filter((name) => !isCommon(name));
  for (const name of names.slice(0, REPLY_NAMES)) {
    if (!asked.includes(name.toLowerCase())) add(focus, name, 'unknown', REPLY_NAME_WEIGHT);
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
): FocusEntity | undefined {
  const fits = (entity: FocusEntity) =>
    entity.text === not
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
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function add(focus: Focus, text: string, kind: EntityKind, weight: number): void {
  const existing = focus.entities.find((entity) => entity.text.toLowerCase() === text.toLowerCase());
  if (existing) {
    existing.salience += weight;
    if (existing.kind === 'unknown') existing.kind = kind;
    return;
  }
  focus.entities.push({ text, kind, salience: weight });
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
