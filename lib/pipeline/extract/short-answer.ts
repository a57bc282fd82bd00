import { foldCase, tokenize } from '../../lm/index.js';
import { searchTerm } from '../../retrieval/index.js';
import { escapeRegExp, PRONOUN_SWAPS, STOP_WORDS } from '../../text/index.js';
import type { QuestionShape } from '../understand/shape.js';

/** A line of evidence and how much it counts. */
export interface EvidenceLine {
  text: string;
  weight: number;
  /** A line of the best unit or around it, where a name bound by apposition or naming is taken from. */
  best?: boolean;
}

/** A short answer found in the evidence ("Naomi", "Red", "nine hundred sixty and nine years"). */
export interface AnswerCandidate {
  text: string;
  score: number;
  /** Index of the evidence line where it scored most. */
  line: number;
}

const SENTENCE_BREAK = new Set(['.', '!', '?', '"', '“', '(']);
const AGENT_MARKERS = new Set(['of', 'by']);
/** A past participle, as in a passive ("written by"; Early Modern English also "of"), in lower case. */
const PARTICIPLE = /^\p{Ll}+(?:ed|en|wn)$/u;
const SPEECH = new Set(['said', 'saith', 'says', 'spake', 'answered', 'asked', 'cried', 'wrote']);
const DETERMINERS = new Set(['the', 'a', 'an', 'his', 'her', 'their', 'its', 'this', 'that']);
const NUMBER_WORDS = new Set(
  `one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
  seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
  million`.split(/\s+/),
);
/**
 * A word written in title case ("Hudson", "Jordan"). Places and the things a "which X" question
 * asks for are named so; a word in capitals throughout is an acronym or a keyword of the domain
 * (SQL, NULL, UPDATE), which a text writes the same way everywhere, so it is no answer of its own.
 * (A person may be written in capitals: the KJV's LORD.)
 */
const TITLE_CASE = /^\p{Lu}\p{Ll}/u;
/** How near (in tokens) a candidate must be to the words of the question to count fully. */
const NEARNESS = 6;
const AGENT_BONUS = 1.5;
const OF_SHARE = 0.3;

/**
 * Short answers of the kind the question asks for, found in the evidence: names for who/where
 * (capitalised words that are not the question's own and do not merely start a sentence), the
 * agent after "of"/"by" next to a word of the question ("written by X"), the word before
 * the focus of a "which X" question ("the Hudson river"), runs of number words. Scored by the weight of
 * the line, nearness to the question's words and the rarity of the word (a name found everywhere
 * answers nothing), summed over lines; best first.
 */
export function answerCandidates(
  shape: QuestionShape,
  questionTerms: ReadonlySet<string>,
  evidence: readonly EvidenceLine[],
  rarity: (term: string) => number,
  /** True when the taught text usually writes the word capitalised: a name, not a word that starts a quote. */
  isName: (word: string) => boolean,
  /**
   * For a follow-up, the message's own words, which a short answer must stand near: the words
   * carried from the earlier question are left out, as a name beside them answered that question.
   */
  followUpOwnTerms?: ReadonlySet<string>,
): AnswerCandidate[] {
  const nearTerms = followUpOwnTerms ?? questionTerms;
  if (!['person', 'place', 'choice', 'number'].includes(shape.kind)) return [];
  const totals = new Map<string, AnswerCandidate & { best: number; near: boolean }>();
  evidence.forEach((line, lineIndex) => {
    const tokens = tokenize(line.text);
    const folded = tokens.map((token) => foldCase(token));
    const matchedAt: number[] = [];
    folded.forEach((word, i) => {
      const term = searchTerm(word);
      if (term && nearTerms.has(term)) matchedAt.push(i);
    });
    const nearness = (i: number) => {
      let distance = Number.POSITIVE_INFINITY;
      for (const at of matchedAt) distance = Math.min(distance, Math.abs(at - i));
      return matchedAt.length === 0 ? 0.3 : 1 / (1 + Math.max(0, distance - 1) / NEARNESS);
    };
    const add = (text: string, at: number, bonus = 1) => {
      const term = searchTerm(text.split(' ')[0]);
      record(text, line.weight * nearness(at) * bonus * (term ? rarity(term) : 1));
    };
    /** A candidate's score from this line: summed over lines, and the line where it scored most kept. */
    const record = (text: string, score: number) => {
      const key = text.toLowerCase();
      const entry = totals.get(key) ?? { text, score: 0, line: lineIndex, best: 0, near: false };
      entry.score += score;
      if (matchedAt.length > 0) entry.near = true;
      if (score > entry.best) {
        entry.best = score;
        entry.line = lineIndex;
      }
      totals.set(key, entry);
    };
    const isAnswerWord = (i: number) => {
      const word = folded[i];
      if (!word || !/^\p{L}/u.test(word) || word.length < 2) return false;
      if (STOP_WORDS.has(word) || PRONOUN_SWAPS.has(word)) return false;
      const term = searchTerm(word);
      return term !== null && !questionTerms.has(term);
    };
    /** "Jesus of Nazareth", "king of Assyria", "Lord Jesus Christ": a name that belongs to the question's own. */
    const partOfQuestionName = (i: number) => {
      const joined = (at: number) => matchedAt.includes(at) && /^\p{Lu}/u.test(tokens[at]);
      if (joined(i - 1) || joined(i + 1)) return true;
      return folded[i - 1] === 'of' && matchedAt.includes(i - 2);
    };
    const nameAt = (at: number) =>
      at >= 0 && at < tokens.length && TITLE_CASE.test(tokens[at]) && isAnswerWord(at) && isName(folded[at]);
    /**
     * The name English binds to a noun by apposition or by a naming phrase, in the clause of the
     * focus at i: "Belshazzar the king", "Zipporah his daughter" (a name, then a determiner and
     * the noun); "the king Belshazzar", "this city Jericho" (the noun, then the name); "a woman
     * ... whose name was Delilah", "a prisoner, called Barabbas", "a Jew named Aquila", "Simon by
     * name". Each says what the noun is called, which is what "which X" asks. -1 when none.
     */
    const namedFocus = (i: number): number => {
      const before = folded[i - 1] === ',' ? i - 1 : i;
      if (APPOSITION_DETERMINERS.has(folded[before - 1] ?? '')) {
        const at = folded[before - 2] === ',' ? before - 3 : before - 2;
        if (nameAt(at)) return at;
      }
      if (APPOSITION_DETERMINERS.has(folded[i - 1] ?? '') && nameAt(i + 1)) return i + 1;
      for (let at = i + 1; at < Math.min(tokens.length, i + NAMING_REACH); at++) {
        if (CLAUSE_END.has(folded[at])) break;
        // "named" after an article is an adjective ("a named Debian archive": some archive given
        // by name), and a name a lower-case noun follows modifies that noun, naming nothing.
        const naming =
          (NAMING_VERBS.has(folded[at - 1]) && !ARTICLES.has(folded[at - 2] ?? '')) ||
          (folded[at - 2] === 'name' && NAMING_COPULAS.has(folded[at - 1]));
        const endsPhrase = !/^\p{Ll}/u.test(tokens[at + 1] ?? '') || STOP_WORDS.has(folded[at + 1]);
        if (naming && endsPhrase && nameAt(at)) return at;
        if (folded[at + 1] === 'by' && folded[at + 2] === 'name' && nameAt(at)) return at;
      }
      return -1;
    };
    // Technical writing binds a name to the noun a "which X" asks for as it binds a person's name:
    // "the `onClose` hook", "the virtual package "mail-transport-agent"", "a table named
    // "SQLITE_SCHEMA"": the name is written as code, quoted or as an identifier, which no word of
    // prose is. Only in the unit that answers and around it, as for names by apposition.
    if (shape.kind === 'choice' && shape.focus && line.best) {
      for (const name of namesBoundTo(line.text, shape.focus)) {
        const first = searchTerm(name.split(/[^\p{L}\p{N}]+/u).find(Boolean) ?? '');
        if (first !== null && questionTerms.has(first)) continue;
        record(name, line.weight * AGENT_BONUS * (first ? rarity(first) : 1));
      }
    }
    for (let i = 0; i < tokens.length; i++) {
      if (shape.kind === 'number') {
        if (!isNumberWord(folded[i]) || (i > 0 && isNumberWord(folded[i - 1]))) continue;
        // Part of a name such as UTF-8 or ISO-8601, an issue number (#3925) or a path or address
        // (/v1/users/42), not a quantity.
        if (NOT_A_QUANTITY.has(folded[i - 1] ?? '') || NOT_A_QUANTITY.has(folded[i + 1] ?? '')) continue;
        let end = i;
        while (end + 1 < tokens.length && (isNumberWord(folded[end + 1]) || folded[end + 1] === 'and')) end++;
        while (folded[end] === 'and') end--;
        const unit = folded[end + 1] && !STOP_WORDS.has(folded[end + 1]) ? ` ${tokens[end + 1]}` : '';
        add(tokens.slice(i, end + 1).join(' ') + unit, i);
        i = end;
        continue;
      }
      if (shape.kind === 'choice') {
        // Only a name qualifies the focus ("the Hudson river"); "the external model" names nothing.
        // "Which king of Babylon": a name the text gives another restriction ("Zedekiah king of
        // Judah") is another king, not the one asked about.
        const otherwise = shape.focusOf && folded[i + 1] === 'of' && folded[i + 2] !== shape.focusOf;
        if (
          !otherwise &&
          folded[i] === shape.focus &&
          i > 0 &&
          TITLE_CASE.test(tokens[i - 1]) &&
          isAnswerWord(i - 1) &&
          isName(folded[i - 1])
        ) {
          add(tokens[i - 1], i - 1, AGENT_BONUS);
        }
        // Only in the unit that answers and around it: the noun is bound to a name in many
        // places ("a city called Nazareth"), and one of another passage is another city.
        if (!otherwise && line.best && folded[i] === shape.focus) {
          const named = namedFocus(i);
          if (named >= 0) add(tokens[named], named, AGENT_BONUS);
        }
        // "Which city of Judaea": a name the text places in the question's restriction ("Bethlehem
        // of Judaea") is one of the things asked about, though the text need not say "city".
        if (shape.focusOf && folded[i] === 'of' && folded[i + 1] === shape.focusOf && nameAt(i - 1)) {
          add(tokens[i - 1], i - 1, AGENT_BONUS);
        }
        continue;
      }
      // A passive's agent: the word after "by" (or the older "of") that follows a participle of the
      // question ("written by X"), not a possessor ("the king of X").
      if (
        AGENT_MARKERS.has(folded[i]) &&
        i > 0 &&
        matchedAt.includes(i - 1) &&
        PARTICIPLE.test(tokens[i - 1])
      ) {
        const at = DETERMINERS.has(folded[i + 1]) ? i + 2 : i + 1;
        if (isAnswerWord(at)) add(tokens[at], at, AGENT_BONUS);
      }
      if (
        shape.kind === 'person' &&
        SPEECH.has(folded[i + 1] ?? '') &&
        isAnswerWord(i) &&
        isName(folded[i])
      ) {
        add(tokens[i], i, AGENT_BONUS);
        continue;
      }
      const capitalised =
        (shape.kind === 'place' ? TITLE_CASE : /^\p{Lu}/u).test(tokens[i]) &&
        isName(folded[i]) &&
        !partOfQuestionName(i);
      const startsSentence = i === 0 || SENTENCE_BREAK.has(tokens[i - 1]);
      // A name after "of" is a possessor ("the God of Isaac"), seldom the one a question asks for.
      // A sentence's first word is capitalised anyway: it counts as a name only when the text
      // writes it capitalised elsewhere too and another name follows it ("Marla Quist was ...").
      const nameAtStart =
        startsSentence && capitalised && /^\p{Lu}\p{Ll}/u.test(tokens[i + 1] ?? '') && isName(folded[i + 1]);
      if (capitalised && (!startsSentence || nameAtStart) && isAnswerWord(i)) {
        // A name of several capitalised words ("Marla Quist") is one answer.
        let end = i;
        while (
          end + 1 < tokens.length &&
          end < i + 2 &&
          /^\p{Lu}\p{Ll}/u.test(tokens[end + 1]) &&
          isName(folded[end + 1])
        )
          end++;
        add(tokens.slice(i, end + 1).join(' '), i, folded[i - 1] === 'of' ? OF_SHARE : 1);
        i = end;
      }
    }
  });
  // For a follow-up, a name only ever seen in lines without the message's own words stood beside
  // the earlier question's topic: it answered that question, not this one. (A first question
  // keeps names of the neighbouring line: a verse often names who the one before speaks of.)
  return [...totals.values()]
    .filter((entry) => !followUpOwnTerms || entry.near)
    .map(({ text, score, line }) => ({ text, score, line }))
    .sort((a, b) => b.score - a.score);
}

/** A name as technical writing sets it: quoted, or an identifier (an option, a dotted or snake_case name, camelCase, a constant). */
const TECHNICAL_NAME =
  '(?:"([^"\\s]{2,40})"|\'([^\'\\s]{2,40})\'|“([^”\\s]{2,40})”|(--?[A-Za-z][\\w-]*|[A-Za-z]\\w*(?:[_.]\\w+)+|[a-z]+[A-Z]\\w*|[A-Z][A-Z0-9]*_[A-Z0-9_]+))';

/**
 * The names a text binds to a noun: "the <name> [word] <noun>" ("the lsb_release -a command", "the
 * onClose hook"), "the [word] <noun> <name>" ("the virtual package "mail-transport-agent"", "the
 * option --follow"), "<noun> named/called <name>" ("a special table named "SQLITE_SCHEMA"").
 */
function namesBoundTo(text: string, focus: string): string[] {
  const stem = focus.replace(/s$/, '');
  if (stem.length < 2 || !text.toLowerCase().includes(stem)) return [];
  const patterns = bindingPatterns(stem);
  const names: string[] = [];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const name = match.slice(1).find((group) => group !== undefined);
      if (name) names.push(name.replace(/[.,;:]+$/, ''));
    }
  }
  return names;
}

/** The patterns of `namesBoundTo` for a noun, made once per noun. */
function bindingPatterns(stem: string): RegExp[] {
  const known = bindings.get(stem);
  if (known) return known;
  // Case matters in a name (`onClose` is an identifier, "once" is not), so the patterns are
  // case-sensitive and the noun takes either case of its first letter.
  const escaped = escapeRegExp(stem);
  const noun = `[${escaped[0].toLowerCase()}${escaped[0].toUpperCase()}]${escaped.slice(1)}s?`;
  const determiner = '(?:[Tt]he|[Aa]n?|[Tt]his)';
  const patterns = [
    new RegExp(`\\b${determiner}\\s+${TECHNICAL_NAME}\\s+(?:\\S+\\s+)?${noun}\\b`, 'g'),
    new RegExp(`\\b${determiner}\\s+(?:[a-z]+\\s+)?${noun}\\s+${TECHNICAL_NAME}`, 'g'),
    new RegExp(`\\b${noun}\\s+(?:named|called)\\s+${TECHNICAL_NAME}`, 'g'),
  ];
  if (bindings.size >= BINDINGS_KEPT) bindings.clear();
  bindings.set(stem, patterns);
  return patterns;
}

const bindings = new Map<string, RegExp[]>();
const BINDINGS_KEPT = 500;

/** Words between a name and the noun it stands in apposition to ("Belshazzar the king", "Zipporah his daughter"). */
const APPOSITION_DETERMINERS = new Set(['the', 'this', 'that', 'his', 'her', 'their']);
/** Words that introduce what something is called ("a Jew named Aquila", "a prisoner, called Barabbas"). */
const NAMING_VERBS = new Set(['named', 'called']);
/** "whose name was Delilah", "his name is Jethro". */
const NAMING_COPULAS = new Set(['was', 'is', 'were']);
const ARTICLES = new Set(['a', 'an', 'the']);
/** How many tokens after the noun a naming phrase may stand, within its clause. */
const NAMING_REACH = 12;
const CLAUSE_END = new Set(['.', ';', ':', '!', '?']);

/** Characters that make a number beside them part of a name, a reference or a path. */
const NOT_A_QUANTITY = new Set(['-', '#', '/', '_']);

function isNumberWord(word: string | undefined): boolean {
  return word !== undefined && (NUMBER_WORDS.has(word) || /^\d[\d,.]*$/.test(word));
}
