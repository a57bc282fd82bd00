/** What kind of answer a question asks for. */
export type AnswerKind = 'person' | 'place' | 'time' | 'number' | 'choice' | 'reason' | 'thing';

/** How the service reads a message before answering it. */
export interface QuestionShape {
  /** True when the message asks something (or asks to be told about something). */
  asks: boolean;
  /** True for greetings, thanks and requests for a story: answered by the generator, not from passages. */
  chitChat: boolean;
  kind: AnswerKind;
  /** For "which X" / "what X" questions: the word X the answer qualifies (case-folded). */
  focus: string | null;
}

const QUESTION_START =
  /^(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|am|do|does|did|can|could|should|would|will|shall|may|might|has|have|had|tell me about|explain|describe|define|list|name|show me)\b/i;
const GREETING =
  /^(?:hi|hello|hey|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening|night)|thanks?|thank you|cheers|bye|goodbye|see you|ok|okay|cool|nice|great|lol|haha)\b[\s!.,]*(?:there|you|again|bot|friend)?[\s!.,]*$/i;
const STORY =
  /^(?:(?:please\s+)?(?:tell|write|give)\s+(?:me\s+)?(?:a|another|some)\s+(?:story|joke|poem|tale))\b/i;
const HOW_ARE_YOU = /^how are (?:you|things)\b|^what'?s up\b|^how'?s it going\b/i;

/** Words that ask for made-up text: a story, a poem, "write something about the sea". */
const MADE_UP =
  /^(?:please\s+)?(?:(?:tell|write|give|make up|compose|invent)\s+(?:me\s+|us\s+)?(?:a|an|another|some)\s+(?:short\s+|little\s+|new\s+)?(?:story|poem|tale|verse|song|fable|limerick|haiku|rhyme)|write\s+(?:me\s+)?(?:something|anything|a few lines|a paragraph|some text)|(?:say|generate|babble)\s+(?:something|anything|some text)(?:\s+random)?|make\s+(?:something|a story)\s+up|improvise)\b/i;

/** What made-up text is asked to be about: "write something about the sea" -> "the sea" ('' for none). */
export function madeUpTopic(message: string): string {
  return message
    .trim()
    .replace(MADE_UP, '')
    .replace(/^[\s,]*(?:about|on|of|with|for)\b/i, '')
    .replace(/[?.!]+$/, '')
    .trim();
}

/** True when someone asks for made-up text: the only messages the generator answers. */
export function asksForMadeUpText(message: string): boolean {
  return MADE_UP.test(message.trim());
}

/** Reads the shape of a message: is it a question, what kind of answer, or just chit-chat. */
export function shapeOf(message: string): QuestionShape {
  const text = message.trim();
  const chitChat = GREETING.test(text) || STORY.test(text) || HOW_ARE_YOU.test(text);
  const asks = !chitChat && (text.endsWith('?') || QUESTION_START.test(text));
  const lower = text.toLowerCase();
  let kind: AnswerKind = 'thing';
  let focus: string | null = null;
  if (/^(?:who|whom|whose)\b|\b(?:who|whom)\b[^?]*\?$/.test(lower)) kind = 'person';
  else if (/^where\b/.test(lower)) kind = 'place';
  else if (/^when\b|^what (?:year|day|time|month)\b/.test(lower)) kind = 'time';
  else if (/^how (?:many|much|old|long|far|big|large|tall)\b/.test(lower)) kind = 'number';
  else if (/^why\b/.test(lower)) kind = 'reason';
  else {
    const which = /^(?:which|what)\s+([a-z]+)\b/.exec(lower);
    if (which && !AUXILIARIES.has(which[1])) {
      kind = 'choice';
      focus = headNoun(lower);
    }
  }
  return { asks, chitChat, kind, focus };
}

const AUXILIARIES = new Set(
  'is are was were am do does did can could should would will shall may might has have had of about kind sort'.split(
    ' ',
  ),
);

/**
 * The noun a "which X" question asks about: the last word before its verb ("which private key files
 * does ..." -> "files"), or the first word when no auxiliary follows soon ("which sea did" -> "sea").
 */
function headNoun(question: string): string {
  const words = question
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .slice(1, 6);
  const verb = words.findIndex((word) => AUXILIARIES.has(word) || VERBISH.has(word));
  if (verb > 0 && verb <= 4) return words[verb - 1];
  return words[0];
}

/** Verbs that follow a "which X" phrase in questions about software ("which option lets me ..."). */
const VERBISH = new Set(
  'lets makes shows stops enables disables sets controls gives returns causes turns'.split(' '),
);
