import type { DialoguePair } from '../documents/types.js';
import { type LanguageModel, ownCopy } from '../lm/index.js';
import type { PassageIndex } from '../retrieval/index.js';
import { normalizeStatement, StatementFinder, similarityFrom } from './match.js';
import { PERSONA } from './persona.js';
import { describeTaught, exampleQuestions } from './taught.js';

export { describeTaught, exampleQuestions } from './taught.js';

/** Least similarity to a shipped statement for the persona to answer (checked before retrieval). */
const PERSONA_THRESHOLD = 0.86;
/** Least similarity to a trained statement (users' dialogue is matched a little more loosely). */
const TRAINED_THRESHOLD = 0.8;
/** Longer messages are questions, not small talk. */
const MAX_WORDS = 8;

/** A social reply and what it matched. */
export interface SocialReply {
  text: string;
  /** The intent of the shipped persona, or "trained" for a trained dialogue. */
  intent: string;
  /** The statement it matched, and how closely (0-1). */
  matched: string;
  confidence: number;
}

export interface DialogueKnowledge {
  model: LanguageModel;
  passages: PassageIndex;
  /** Statement/reply pairs trained with `format: "dialogue"`. */
  dialogue?: readonly DialoguePair[];
}

/**
 * The dialogue layer: a greeting, thanks, "who are you" and the like, answered from the persona
 * the service ships or from a trained dialogue, only when the message is close to a known
 * statement. Null for anything else (a question goes on to retrieval).
 */
export function socialReply(message: string, knowledge: DialogueKnowledge): SocialReply | null {
  const whole = matchStatement(message, knowledge);
  if (whole) return whole;
  // "cheers, that was useful", "ok thanks, bye": small talk in parts, each of them known.
  const parts = message.split(/[,;.!]+|\s+(?:and|but)\s+/i).filter((part) => part.trim() !== '');
  if (parts.length < 2 || parts.length > 3) return null;
  const replies = parts.map((part) => matchStatement(part, knowledge));
  if (replies.some((reply) => reply === null)) return null;
  const [first] = replies as SocialReply[];
  const confidence = Math.min(...(replies as SocialReply[]).map((reply) => reply.confidence));
  return { ...first, matched: parts.map((part) => part.trim()).join(' + '), confidence };
}

/** The statement a message matched, before its reply is filled in. */
interface Match {
  reply: string;
  intent: string;
  matched: string;
  confidence: number;
}

/**
 * What messages matched, per trained dialogue list and its length: a message sent again (a
 * greeting, a suggested question clicked) is not compared with every statement again. The keeper
 * only appends to its list and starts a new one when it rebuilds (a dialogue document deleted or
 * replaced), so a list and its length name what was matched against.
 */
const matchesByDialogue = new WeakMap<
  readonly DialoguePair[],
  { size: number; matches: Map<string, Match | null> }
>();
const MATCHES_KEPT = 5_000;
const MATCHED_LENGTH = 200;
const NO_DIALOGUE: readonly DialoguePair[] = [];

function matchStatement(message: string, knowledge: DialogueKnowledge): SocialReply | null {
  const dialogue = knowledge.dialogue ?? NO_DIALOGUE;
  let known = matchesByDialogue.get(dialogue);
  if (!known || known.size !== dialogue.length || known.matches.size >= MATCHES_KEPT) {
    known = { size: dialogue.length, matches: new Map() };
    matchesByDialogue.set(dialogue, known);
  }
  // Only a short message is kept: one of more than a few words is never small talk anyway.
  if (message.length > MATCHED_LENGTH) {
    const best = bestMatch(message, dialogue);
    return best ? finish(best, knowledge) : null;
  }
  let best = known.matches.get(message);
  if (best === undefined) {
    best = bestMatch(message, dialogue);
    known.matches.set(ownCopy(message), best);
  }
  return best ? finish(best, knowledge) : null;
}

function bestMatch(message: string, dialogue: readonly DialoguePair[]): Match | null {
  const statement = normalizeStatement(message);
  if (statement === '' || statement.split(' ').length > MAX_WORDS) return null;
  let best: Match | null = null;
  const prompts = normalizedPrompts(dialogue);
  for (const [at, pair] of dialogue.entries()) {
    const floor = best ? Math.max(TRAINED_THRESHOLD, best.confidence) : TRAINED_THRESHOLD;
    const confidence = similarityFrom(statement, prompts[at], floor);
    if (confidence >= TRAINED_THRESHOLD && (!best || confidence > best.confidence)) {
      best = { reply: pair.reply, intent: 'trained', matched: pair.prompt, confidence };
    }
  }
  if (best && best.confidence >= PERSONA_THRESHOLD) return best;
  // In the persona's order, so that of equally close statements the first still wins.
  for (const at of PERSONA_FINDER.candidates(statement, PERSONA_THRESHOLD)) {
    const known = PERSONA_FINDER.statements[at];
    const intent = PERSONA_INTENTS[at];
    // Only a statement at least as close as the best so far can change the answer.
    const floor = best ? Math.max(PERSONA_THRESHOLD, best.confidence) : PERSONA_THRESHOLD;
    const confidence = similarityFrom(statement, known, floor);
    if (confidence >= PERSONA_THRESHOLD && (!best || confidence > best.confidence)) {
      best = { reply: intent.replies[0], intent: intent.name, matched: known, confidence };
    }
  }
  return best;
}

/** The persona's statements in order, each with its intent. */
const PERSONA_INTENTS = PERSONA.flatMap((intent) => intent.statements.map(() => intent));
const PERSONA_FINDER = new StatementFinder(PERSONA.flatMap((intent) => intent.statements));

/** Trained statements, normalized once per dialogue list. */
const promptCache = new WeakMap<readonly DialoguePair[], string[]>();

function normalizedPrompts(dialogue: readonly DialoguePair[]): string[] {
  let prompts = promptCache.get(dialogue);
  if (!prompts) {
    prompts = [];
    promptCache.set(dialogue, prompts);
  }
  // The keeper appends to its list as dialogue is trained: normalize only what is new.
  for (let at = prompts.length; at < dialogue.length; at++)
    prompts.push(normalizeStatement(dialogue[at].prompt));
  return prompts;
}

function finish(best: Match, knowledge: DialogueKnowledge): SocialReply {
  const text = best.reply
    .replace('{taught}', () => describeTaught(knowledge.passages, knowledge.model))
    .replace('{examples}', () => examplesText(knowledge))
    .trim();
  return {
    text,
    intent: best.intent,
    matched: best.matched,
    confidence: Math.round(best.confidence * 100) / 100,
  };
}

function examplesText(knowledge: DialogueKnowledge): string {
  const examples = exampleQuestions(knowledge.passages, knowledge.model);
  if (examples.length === 0) return 'ask me about anything you taught me.';
  if (examples.length === 1) return `${examples[0]}`;
  return `${examples.slice(0, -1).join(', ')} or ${examples[examples.length - 1]}`;
}
