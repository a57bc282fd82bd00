import { isAuxiliary } from '../../text/index.js';

/** What kind of short answer a question asks for. */
export type AnswerKind = 'person' | 'place' | 'time' | 'number' | 'choice' | 'reason' | 'thing';

/**
 * What kind of unit answers a question, read from its structure: `name` for "which option /
 * flag / command ..." (a unit that names a setting), `default` for a question about a default,
 * `procedure` for "how do I / how to ..." (an instruction or a command), `example` for "show me
 * an example" (code that shows what was asked: a code block, or a unit right before one),
 * `reason` for "why", `fact` otherwise.
 */
export type UnitWanted = 'name' | 'default' | 'procedure' | 'example' | 'reason' | 'fact';

/** How the service reads a question before answering it. */
export interface QuestionShape {
  kind: AnswerKind;
  /** For "which X" / "what X" questions: the word X the answer qualifies (case-folded). */
  focus: string | null;
  /** What the question restricts its focus to: "which king of Babylon" -> "babylon" (case-folded). */
  focusOf?: string;
  wants: UnitWanted;
  /** A yes/no question ("Is zlib thread-safe?", "Can I …?"): opened by an auxiliary verb. */
  polar?: boolean;
  /** A definition question ("What is a borrowed reference?"): it asks what the text says a term is. */
  defines?: boolean;
}

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

/**
 * Nouns technical writing uses for a named setting of a program: a question "which X ..." or
 * "what X ..." with one of them as X asks for the unit that names it (an option list entry, a
 * heading such as `retries (Number)`), so the name must reach the reply.
 */
const SETTING_NOUNS =
  /^(?:option|options|flag|flags|switch|switches|setting|settings|parameter|parameters|argument|arguments|variable|variables|command|commands|subcommand|key|keys|field|fields|property|properties|directive|directives|attribute|attributes|function|functions|method|methods|pragma|pragmas|keyword|keywords|hook|hooks|event|events|header|headers|file|files|value|values|mode|modes|type|types|plugin|plugins|program|tool|utility)$/;

/** What may stand before a fronted "which X" / "what X": a preposition, or "the Y of". */
const FRONTED_WH =
  /^(?:(?:in|on|at|to|from|toward|towards|into|onto|by|with|for|under|over|through|after|before|during|near|upon|unto|against|within|across|along|among|between|behind|beside|beyond|around|about)\s+|(?:the|a|an)\s+[a-z]+\s+of\s+)(?=(?:which|what)\s+(?!(?:the|a|an|is|are|was|were)\b))/;

/** Reads the shape of a question: what kind of short answer and what kind of unit it wants. */
export function shapeOf(message: string): QuestionShape {
  const lower = message.trim().toLowerCase();
  let kind: AnswerKind = 'thing';
  let focus: string | null = null;
  // English moves a preposition, or the phrase "which X" belongs to, to the front with it ("In
  // which town ...?", "Toward which city ...?", "The walls of which city ...?"): the question
  // asks "which X" all the same.
  const fronted = FRONTED_WH.exec(lower);
  const asked = fronted ? lower.slice(fronted[0].length) : lower;
  if (/^(?:who|whom|whose)\b|\b(?:who|whom)\b[^?]*\?$/.test(lower)) kind = 'person';
  else if (/^where\b/.test(lower)) kind = 'place';
  else if (/^when\b|^what (?:year|day|time|month)\b/.test(asked)) kind = 'time';
  else if (/^how (?:many|much|old|long|far|big|large|tall)\b/.test(lower)) kind = 'number';
  else if (/^why\b|^how come\b/.test(lower)) kind = 'reason';
  else {
    const which = /^(?:which|what)\s+([a-z]+)\b/.exec(asked);
    if (which && !AUXILIARIES.has(which[1])) {
      kind = 'choice';
      focus = headNoun(asked);
    }
  }
  const restricted = focus ? new RegExp(`\\b${focus} of (?:the )?([a-z]+)`).exec(lower) : null;
  return {
    kind,
    focus,
    ...(restricted ? { focusOf: restricted[1] } : {}),
    wants: unitWanted(lower, kind, focus),
    // An auxiliary verb opening a question asks yes or no.
    ...(isAuxiliary(asked.split(/\s+/, 1)[0] ?? '') ? { polar: true } : {}),
    ...(definitionSubject(message) !== null ? { defines: true } : {}),
  };
}

/**
 * "What page size does a new database get?", "which mode does each new window start in?", "what
 * mode do new windows start in?" (a plural takes no article): what a
 * thing just made gets before anyone sets it is, by definition, its default, so the question asks
 * for the default though it does not say the word.
 */
const NEW_THING_GETS =
  /^(?:what|which)\s+[a-z][a-z\s-]*?\s+(?:does|do|will|would)\s+(?:(?:a|an|each|every|the)\s+)?(?:new|fresh|newly created)\s+[a-z-]+(?:\s+[a-z-]+)?\s+(?:get|have|use|start(?:\s+(?:with|in))?)\b/;

function unitWanted(lower: string, kind: AnswerKind, focus: string | null): UnitWanted {
  if (kind === 'reason') return 'reason';
  // "is X on by default", "what is the default Y": the unit must state the default.
  if (/\bdefaults?\b|\bby default\b/.test(lower) || NEW_THING_GETS.test(lower)) return 'default';
  if ((focus && SETTING_NOUNS.test(focus)) || namesSettingInPhrase(lower)) return 'name';
  // The instruction forms of English: "how do I", "how can I", "how to", "how should we".
  if (
    /^(?:how\s+(?:do|can|could|should|would|may|might|will)\s+(?:i|we|you|one)\b|how\s+to\b|(?:is|are)\s+there\s+a\s+way\b)/.test(
      lower,
    )
  )
    return 'procedure';
  return 'fact';
}

/**
 * A "which X" noun phrase whose head is a setting noun after modifiers ("which SQL function
 * loads ...", "what shell variable holds ...", "which command line option ..."): English puts the
 * head of a compound noun last, so any of the phrase's first three words may be it.
 */
function namesSettingInPhrase(lower: string): boolean {
  const words = /^(?:which|what)\s+(.*)$/.exec(lower)?.[1].split(/\s+/) ?? [];
  for (const word of words.slice(0, 3)) {
    const bare = word.replace(/[^a-z-]/g, '');
    if (AUXILIARIES.has(bare)) return false;
    if (SETTING_NOUNS.test(bare)) return true;
  }
  return false;
}

const AUXILIARIES = new Set(
  'is are was were am do does did can could should would will shall may might has have had of about kind sort'.split(
    ' ',
  ),
);

/**
 * The noun a "which X" question asks about: the last word before its verb ("which private key files
 * does ..." -> "files"), or the first word when no auxiliary follows soon.
 */
function headNoun(question: string): string {
  const words = question
    .replace(/[^a-z0-9\s-]/g, ' ')
    .split(/\s+/)
    .slice(1, 6);
  const verb = words.findIndex((word) => AUXILIARIES.has(word) || VERBISH.has(word));
  // "which city of Judaea was ...": the noun "of" restricts is the head, not the last word.
  const of = words.indexOf('of');
  if (verb > 0 && verb <= 4) return of > 0 && of < verb ? words[of - 1] : words[verb - 1];
  return words[0];
}

/**
 * The verbs reference documentation describes what a setting, a command or a table does with
 * ("lets", "sets", "controls", "holds", "lists"): where a "which X" noun phrase ends when no
 * auxiliary ends it ("which special table holds the schema?" asks for a table).
 */
const VERBISH = new Set(
  'lets allows makes shows stops prevents enables disables sets controls changes gives returns causes turns selects specifies determines limits holds keeps stores contains reads writes prints loads creates removes deletes converts extracts displays lists sorts parses sends checks'.split(
    ' ',
  ),
);

/**
 * What a definition question asks about, as written: "What is a bare repository?" -> "bare
 * repository", "What are hooks?" -> "hooks"; null for other questions or a subject longer than
 * four words.
 */
function definitionSubject(message: string): string | null {
  const match = /^\s*what(?:'s|\s+is|\s+are)\s+(?:an?\s+|the\s+)?([^?]+?)\s*\??\s*$/i.exec(message);
  const subject = match?.[1].trim() ?? '';
  return subject !== '' && subject.split(/\s+/).length <= 4 ? subject : null;
}

/** The subject of a definition question in the form names are compared in (`normalTerm`). */
export function definedTerm(message: string): string | null {
  const subject = definitionSubject(message);
  return subject === null ? null : normalTerm(subject) || null;
}

/** A term as a name and a question both write it: lower case, no code marks or quotes, singular. */
export function normalTerm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`"'“”‘’*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(?<=[a-z]{3})s$/, '');
}
