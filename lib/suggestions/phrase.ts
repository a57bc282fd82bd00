import { hasSense } from '../lexicon/index.js';

/**
 * Headings that name a part of every document rather than a topic: nobody asks about them.
 * (Single-word headings are never used at all: "Tip", "Overview" say nothing a question could.)
 */
const GENERIC_HEADING =
  /^(?:table of contents|see also|release notes|getting help|further reading|next steps|what'?s next|related (?:topics|pages|links)|external links|change ?log|license|licence|references|acknowledg(?:e)?ments?)$/i;
/** Words that open a question already: the heading is kept and given its question mark. */
const QUESTION_WORD =
  /^(?:what|why|when|where|who|whom|whose|which|how|can|could|do|does|did|is|are|was|were|should|will|would|may)\b/i;
/** Words after an imperative or a gerund that show it takes an object ("Reset your password"). */
const OBJECT_START =
  /^(?:the|a|an|your|my|our|their|its|this|that|these|those|to|up|out|with|from|in|on|for)$/i;
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
  const words = clean.split(' ');
  if (words.length < 2 || !words.every((word) => /\p{L}/u.test(word))) return undefined;
  if (/\?$/.test(clean)) return clean;
  const howTo = /^how to\s+(.+)$/i.exec(clean);
  if (howTo) return `How do I ${asAsker(howTo[1]!)}?`;
  if (QUESTION_WORD.test(clean)) return `${clean}?`;

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
  const last = words[words.length - 1]!.toLowerCase();
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
