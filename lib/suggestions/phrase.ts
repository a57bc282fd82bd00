import { hasSense, isEnglishWord } from '../lexicon/index.js';
import { isAuxiliary } from '../text/index.js';

/**
 * Headings that name a part of every document rather than a topic: nobody asks about them.
 * (Single-word headings are never used at all: "Tip", "Overview" say nothing a question could.)
 */
const GENERIC_HEADING =
  /^(?:table of contents|see also|release notes|getting help|further reading|next steps|what'?s next|related (?:topics|pages|links)|external links|change ?log|license|licence|references|acknowledg(?:e)?ments?)$/i;
/** Words that open a question already: the heading is kept and given its question mark. */
const QUESTION_WORD =
  /^(?:what|why|when|where|who|whom|whose|which|how|can|could|do|does|did|is|are|was|were|should|will|would|may)\s/i;
/**
 * Words that make a heading a statement rather than a topic ("AUTOINCREMENT Does Not Work The Same
 * As In PostgreSQL", "No Separate BOOLEAN Datatype"): a negation, or a finite verb after the first
 * word. A statement says a fact; "What is the …?" made of it is not a question anyone asks.
 */
const NEGATION = /^(?:no|not|never|none|cannot|\p{L}+n['’]t)$/iu;
const FINITE_VERB = /^(?:is|are|was|were|does|do|did|has|have|had|can|will|must|should|may)$/i;
/**
 * Words that name the kind of text a section is, not its topic: "Introduction to foreign key
 * constraints" is about foreign key constraints.
 */
const TEXT_KIND =
  /^(?:an?\s+)?(?:introduction|overview|summary|notes?|discussion)\s+(?:to|of|on|about)\s+(.+)$/i;
/** The same said after the topic: "Git explained", "Merging in a nutshell" are about Git, merging. */
const TEXT_KIND_AFTER = /^(.+?)\s+(?:explained|described|in a nutshell|at a glance|in brief|in short)$/i;
/** Small words a title-case heading leaves in lower case ("List of PRAGMAs"). */
const TITLE_SMALL_WORD =
  /^(?:a|an|the|and|or|nor|but|of|to|in|on|at|by|for|with|from|as|vs|via|into|onto|per)$/i;
/** Where a noun phrase's head ends: "list of PRAGMAs" is a list, "use of WAL" a use. */
const POST_HEAD = /^(?:of|for|to|in|on|with|without|from|by|at|into|between|under|over|as|versus|vs)$/i;
/** Words after an imperative or a gerund that show it takes an object ("Reset your password"). */
const OBJECT_START =
  /^(?:the|a|an|your|my|our|their|its|this|that|these|those|to|up|out|with|from|in|on|for|what|which|who|how|where|when|whether|if)$/i;
const DETERMINER = /^(?:the|a|an|your|my|our|their|its|this|that|these|those)$/i;
const LONGEST_HEADING = 70;
/**
 * A section's number before its heading: "5.", "1.7." or "5.Extended" (written without a space),
 * "1.7 Covering", "(5) ", "IV. ", or a bare number before a capitalised word ("1 Introduction").
 * A number that is part of the heading's words ("256 and Truecolor colors") stays.
 */
const SECTION_NUMBER = /^(?:\d+(?:\.\d+)*\.\s*|\d+(?:\.\d+)+\s+|\d+\s+(?=\p{Lu})|\(\d+\)\s*|[IVX]+\.\s+)/u;

/** Whether a word is a name (so keeps its capital and takes no article); passed in, from the model's casing. */
export type IsName = (word: string) => boolean;

/**
 * A question a visitor might ask, made from a section heading, or undefined when the heading
 * does not name a topic (one word, a generic part of a document, code). The heading's own words
 * stay as they are: "How to reset a password" -> "How do I reset a password?", "Installing the
 * CLI" -> "How do I install the CLI?", "Opening hours" -> "What are the opening hours?".
 */
export function questionFromHeading(heading: string, isName: IsName = () => false): string | undefined {
  const clean = heading
    .replace(SECTION_NUMBER, '')
    .replace(/\s+/g, ' ')
    .replace(/[:.;,]+$/, '')
    .trim();
  if (clean.length === 0 || clean.length > LONGEST_HEADING) return undefined;
  // An exclamation ("Let's start!") greets or urges; it names no topic.
  if (/!$/.test(clean)) return undefined;
  // A title and its subtitle ("Basic bisect commands: start, bad, good"): the title names the topic.
  const colon = clean.indexOf(': ');
  if (colon > 0) return questionFromHeading(clean.slice(0, colon), isName);
  // A heading set in capitals ("DIFF FORMATTING", as manual pages set theirs) is typography: its
  // words are asked about as the text writes them, names with their capital.
  if (/\p{Lu}.*\s/u.test(clean) && clean === clean.toUpperCase()) {
    return questionFromHeading(
      clean
        .split(' ')
        .map((word) => word.toLowerCase())
        .map((word) => (isName(word) ? `${word[0]!.toUpperCase()}${word.slice(1)}` : word))
        .join(' '),
      isName,
    );
  }
  if (/[()[\]{}<>/=`_|\\#*$@]/.test(clean) || GENERIC_HEADING.test(clean)) return undefined;
  // Title case ("Foreign Key Constraints") is typography too: its words are asked about in lower
  // case, save names, acronyms and words written with inner capitals or digits ("PRAGMAs", "HTTP/2").
  const cased = isTitleCase(clean)
    ? clean
        .split(' ')
        .map((word) => (keepsCapitals(word, isName) ? word : word.toLowerCase()))
        .join(' ')
    : clean;
  return fromPlainHeading(cased, isName);
}

/** The question of a heading whose capitals are as a sentence writes them. */
function fromPlainHeading(clean: string, isName: IsName): string | undefined {
  const words = clean.split(' ');
  if (words.length < 2 || !words.every((word) => /\p{L}/u.test(word))) return undefined;
  if (/\?$/.test(clean)) return clean;
  const topic = TEXT_KIND.exec(clean) ?? TEXT_KIND_AFTER.exec(clean);
  if (topic)
    return questionFromHeading(
      topic[1]!.replace(/^\p{Ll}/u, (c) => c.toUpperCase()),
      isName,
    );
  const howTo = /^how to\s+(.+)$/i.exec(clean);
  if (howTo) return `How do I ${asAsker(howTo[1]!)}?`;
  // "About this service", "About us": the heading names its topic after "about", and a visitor
  // asks what there is to know about it.
  const about = /^about\s+(.+)$/i.exec(clean);
  if (about) return `What can you tell me about ${asAsker(about[1]!)}?`;
  // An embedded question as a heading keeps a statement's order ("How replies are made", "What
  // the service cannot do"); asked, English puts its auxiliary before the subject.
  const embedded = asDirectQuestion(words);
  if (embedded) return embedded;
  if (QUESTION_WORD.test(clean)) return `${clean}?`;
  if (words.some((word) => NEGATION.test(word)) || words.slice(1).some((word) => FINITE_VERB.test(word))) {
    return undefined;
  }

  const [first, ...rest] = words;
  const lower = first!.toLowerCase();
  const next = rest[0] ?? '';
  const tail = asAsker(rest.join(' '));
  // An action ("Reset your password", "Installing the CLI", "Getting started") is asked as
  // "How do I …?"; a word that is also a noun counts as an action only when an object follows.
  const takesObject = OBJECT_START.test(next) || /^\p{Ll}+ed$/u.test(next) || isName(next);
  // A gerund before two or more words heads a verb phrase ("Buying tickets online"); a compound
  // noun made with one is two words ("Opening hours").
  if (/^[a-z]+ing$/.test(lower) && (takesObject || rest.length >= 2 || !hasSense('noun', lower))) {
    const base = baseOfGerund(lower);
    if (base) return `How do I ${base} ${tail}?`;
  }
  if (/^[a-z]+$/.test(lower) && hasSense('verb', lower) && (takesObject || !hasSense('noun', lower))) {
    return `How do I ${lower} ${tail}?`;
  }
  return nounQuestion(words, isName);
}

/**
 * Title case: every word after the first capitalised but the small ones, and at least one is
 * ("Extended Result Code List", "List Of PRAGMAs", "fastify Error Codes").
 */
function isTitleCase(heading: string): boolean {
  const words = heading.split(' ').filter((word) => /\p{L}/u.test(word));
  const content = words.slice(1).filter((word) => !TITLE_SMALL_WORD.test(word) || /^\p{Lu}/u.test(word));
  return (
    content.length > 0 && content.every((word) => /^\p{Lu}/u.test(word)) && heading !== heading.toUpperCase()
  );
}

/**
 * A word that keeps its capitals in a sentence: a name, an acronym, a word with inner capitals or
 * digits or dots ("PRAGMAs", "Node.js"). Each part of a hyphenated word is looked at alone
 * ("Shared-Memory" is title case, "Do-It-Yourself" too).
 */
function keepsCapitals(word: string, isName: IsName): boolean {
  if (/\d/.test(word) || /[.]/.test(word.slice(1, -1))) return true;
  const parts = word.split('-').map((part) => part.replace(/[^\p{L}]/gu, ''));
  if (parts.some((part) => /\p{Lu}.*\p{Lu}/u.test(part))) return true;
  // The model's casing is no guide to a title's own words (the headings are in its text, set in
  // title case: "Interactive", "Asked"): a word of the language is a name only when the model
  // says so and it is no word of the language's ("Debian", "Fastify").
  return parts.some((part) => part.length > 0 && isName(part.toLowerCase()) && isEnglishWord(part) === false);
}

/** The heading's words as the visitor says them: "your account" -> "my account". */
function asAsker(words: string): string {
  return words.replace(/\byour\b/gi, 'my').replace(/\byourself\b/gi, 'myself');
}

/** "What is the harbour museum?", "What are the opening hours?", "What is Kubernetes ingress?" */
function nounQuestion(words: readonly string[], isName: IsName): string {
  const [first, ...rest] = words;
  const named = isName(first!) || /\p{Lu}.*\p{Lu}|\d/u.test(first!);
  const opening = named || !/^\p{Lu}\p{Ll}*$/u.test(first!) ? first! : first!.toLowerCase();
  const phrase = [opening, ...rest].join(' ');
  const head = words.findIndex((word, i) => i > 0 && POST_HEAD.test(word));
  const last = words[(head > 0 ? head : words.length) - 1]!.toLowerCase();
  const plural = /[^su]s$/.test(last) && !/(?:ss|us|is|ics)$/.test(last) && last.length > 3;
  const article = named || DETERMINER.test(first!) ? '' : 'the ';
  return `What ${plural ? 'are' : 'is'} ${article}${phrase}?`;
}

/** The base form of a gerund, when WordNet knows it as a verb: installing -> install, configuring -> configure, getting -> get. */
function baseOfGerund(gerund: string): string | undefined {
  const stem = gerund.slice(0, -3);
  const candidates = [stem, `${stem}e`];
  if (/([b-df-hj-np-tv-z])\1$/.test(stem)) candidates.push(stem.slice(0, -1));
  return candidates.find((candidate) => candidate.length > 1 && hasSense('verb', candidate));
}

/** A wh-word or "how", the words of an embedded question's subject, then its auxiliary. */
const WH_WORD = /^(?:what|why|when|where|who|which|how)$/i;

/**
 * "How replies are made" -> "How are replies made?", "What the service cannot do" -> "What can't
 * the service do?": a wh-word, a subject of one to four words, then an auxiliary. A heading
 * whose auxiliary follows the wh-word ("How is a row stored") is already a question.
 */
function asDirectQuestion(words: readonly string[]): string | undefined {
  if (!WH_WORD.test(words[0] ?? '')) return undefined;
  const at = words.findIndex((word, i) => i > 0 && isAuxiliary(word));
  if (at >= 2 && at <= 5) {
    const auxiliary = words[at]!.toLowerCase();
    const moved = auxiliary === 'cannot' ? "can't" : auxiliary;
    // A form of "do" or "have" at the end is the main verb: "What the parser does" asks "What
    // does the parser do?", which needs the verb again.
    if (at === words.length - 1 && /^(?:do|does|did)$/.test(auxiliary))
      return `${[words[0], auxiliary, ...words.slice(1, at), 'do'].join(' ')}?`;
    if (at === words.length - 1 && /^(?:has|have|had)$/.test(auxiliary)) return undefined;
    return `${[words[0], moved, ...words.slice(1, at), ...words.slice(at + 1)].join(' ')}?`;
  }
  // No auxiliary: a verb in -s after the subject takes "does" ("How it works" -> "How does it work?").
  if (at >= 0) return undefined;
  const verb = words.findIndex((word, i) => i >= 2 && i <= 4 && /^[a-z]+s$/.test(word) && !/ss$/.test(word));
  if (verb < 0) return undefined;
  const base = [words[verb]!.slice(0, -1), words[verb]!.slice(0, -2)].find(
    (stem) => stem.length > 1 && hasSense('verb', stem),
  );
  if (!base) return undefined;
  return `${[words[0], 'does', ...words.slice(1, verb), base, ...words.slice(verb + 1)].join(' ')}?`;
}
