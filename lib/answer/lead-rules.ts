import { foldCase, tokenize } from '../lm/index.js';
import { type PassageIndex, searchTerm } from '../retrieval/index.js';
import type { AnswerCandidate, EvidenceLine } from './candidates.js';
import type { AnswerKind } from './question.js';

/** A relation a question names: "Ruth's mother in law", "the father of Isaac". */
export interface Relation {
  /** The one the relation is of ("Ruth"). */
  of: string;
  /** The relation's words ("mother in law"), lower case. */
  relation: string[];
}

const RELATION_WORD =
  /^(?:father|mother|brother|sister|son|daughter|wife|husband|uncle|aunt|nephew|niece|cousin|grandfather|grandmother|grandson|granddaughter|firstborn|child|children|sons|daughters|brethren|king|queen|servant|master|friend|teacher|disciple|captain|heir|successor|predecessor|author|creator|founder|owner|maintainer|parent|spouse|twin)$/;

/** The relation a who-question asks about, if any. */
export function relationOf(question: string): Relation | null {
  const text = question.replace(/[?.!]+$/, '').trim();
  // "the son of Abraham's brother Haran": the relation of the last name of what follows "of".
  const of =
    /\bthe\s+((?:first\s+|twin\s+)?[a-z]+(?:\s+in\s+law)?)\s+of\s+((?:\p{Lu}[\p{L}'’-]*\s*(?:[a-z]+\s+)?){1,3})/u.exec(
      text,
    );
  if (of) {
    const words = of[1].toLowerCase().split(/\s+/);
    const head = words[words.length - 1] === 'law' ? words[0] : words[words.length - 1];
    const names = of[2].match(/\p{Lu}[\p{L}-]*/gu) ?? [];
    if (RELATION_WORD.test(head) && names.length > 0) return { of: names[names.length - 1], relation: words };
  }
  const possessive = /(\p{Lu}[\p{L}-]*)['’]s?\s+((?:twin\s+)?[a-z]+(?:\s+in\s+law)?)\b/u.exec(text);
  if (
    possessive &&
    RELATION_WORD.test(
      possessive[2].split(/\s+/).pop() === 'law'
        ? possessive[2].split(/\s+/)[0]
        : (possessive[2].split(/\s+/).pop() ?? ''),
    )
  ) {
    return { of: possessive[1], relation: possessive[2].toLowerCase().split(/\s+/) };
  }
  return null;
}

const COPULAS = new Set(['was', 'is', 'were', 'are']);
const POSSESSIVES = new Set(['his', 'her', 'their', 'its', 'thy', 'my', 'your', 'our']);

/**
 * Names the evidence puts in the relation: "Naomi her mother in law", "his brother Aaron",
 * "Aaron, the brother of Moses", "the wife of Ahab, Jezebel". Only names written next to the
 * relation count; a name that merely shares the sentence (its subject) does not.
 */
export function relationCandidates(
  relation: Relation,
  lines: readonly EvidenceLine[],
  isName: (word: string) => boolean,
): AnswerCandidate[] {
  const totals = new Map<string, AnswerCandidate>();
  const of = foldCase(relation.of);
  const size = relation.relation.length;
  const core = relation.relation.filter((word) => word !== 'twin' && word !== 'first');
  lines.forEach((line, lineIndex) => {
    const tokens = tokenize(line.text);
    const folded = tokens.map((token) => foldCase(token));
    const capitalised = (i: number) => {
      const token = tokens[i];
      return (
        !!token &&
        /^\p{Lu}\p{Ll}/u.test(token) &&
        !/['’]/u.test(token) &&
        folded[i] !== of &&
        isName(folded[i])
      );
    };
    /** The name written at i, with the capitalised words joined to it ("Marla Quist"). */
    const name = (i: number) => {
      if (!capitalised(i)) return null;
      let from = i;
      let to = i;
      while (from > 0 && from > i - 2 && capitalised(from - 1)) from--;
      while (to < tokens.length - 1 && to < i + 2 && capitalised(to + 1)) to++;
      return tokens.slice(from, to + 1).join(' ');
    };
    for (let i = 0; i < tokens.length; i++) {
      if (!matchesAt(folded, i, core)) continue;
      const end = i + core.length;
      const found: (string | null)[] = [];
      // NAME his/her R ("Naomi her mother in law"); NAME, the R of X
      const previous = (folded[i - 1] ?? '').replace(/['’]s?$/u, '');
      const before = POSSESSIVES.has(previous) || previous === 'the' || previous === of ? i - 2 : i - 1;
      if (before >= 0) found.push(name(before) ?? (tokens[before] === ',' ? name(before - 1) : null));
      // NAME was the R of X ("Marla Quist was the mother in law of Ondine")
      if (COPULAS.has(folded[i - 2] ?? '') && (previous === 'the' || POSSESSIVES.has(previous)))
        found.push(name(i - 3));
      // R NAME, R, NAME ("his brother Aaron", "her husband, Elimelech")
      const after = tokens[end] === ',' ? end + 1 : end;
      // X's R was NAME
      if (COPULAS.has(folded[after] ?? '') && previous === of) found.push(name(after + 1));
      else if (folded[after] !== 'of') found.push(name(after));
      else {
        // the R of (Marla) Quist, NAME / was NAME
        let k = after + 1;
        while (k < tokens.length && k < after + 4 && capitalised(k)) k++;
        if (folded[k] === of) k++;
        if (folded[k - 1] === of) {
          const next = tokens[k] === ',' || COPULAS.has(folded[k] ?? '') ? k + 1 : -1;
          if (next > 0) found.push(name(next));
        }
      }
      for (const candidate of found) {
        if (!candidate) continue;
        const key = candidate.toLowerCase();
        const entry = totals.get(key) ?? { text: candidate, score: 0, line: lineIndex };
        entry.score += line.weight * (size > 1 ? 1.5 : 1);
        totals.set(key, entry);
      }
    }
  });
  return [...totals.values()].sort((a, b) => b.score - a.score);
}

function matchesAt(words: readonly string[], at: number, phrase: readonly string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (words[at + k] !== phrase[k]) return false;
  return phrase.length > 0;
}

/** How often a word is written after a word of a kind, from a sample of the passages holding it. */
const kindCache = new WeakMap<PassageIndex, Map<string, Usage>>();

interface Usage {
  the: number;
  locative: number;
  place: number;
  seen: number;
}
const SAMPLE = 40;
const LOCATIVE = new Set(['in', 'to', 'from', 'unto', 'at', 'into', 'toward', 'towards', 'near', 'on']);
/** Words before a place that seldom stand before a person ("in Zidon", "from Moab"; people are spoken "unto"). */
const PLACE_ONLY = new Set(['in', 'at', 'into', 'from', 'toward', 'towards', 'near', 'throughout']);

/**
 * Whether a short answer is of the kind the question asks: for "who", a word the text seldom
 * writes after "the" (a person, not "the Red sea"); for "where", one it writes after a word of
 * place ("in Moab", "to Zoar") at least now and then. Other kinds are not checked.
 */
export function fitsKind(index: PassageIndex, answer: string, kind: AnswerKind): boolean {
  if (kind !== 'person' && kind !== 'place') return true;
  const word = foldCase(answer.split(/\s+/)[0]);
  const usage = usageOf(index, word);
  if (usage.seen === 0) return true;
  if (kind === 'person') return usage.the / usage.seen < 0.25 && usage.place / usage.seen < 0.3;
  return usage.locative / usage.seen >= 0.15;
}

function usageOf(index: PassageIndex, word: string): Usage {
  let cache = kindCache.get(index);
  if (!cache || cache.size > 5000) {
    cache = new Map();
    kindCache.set(index, cache);
  }
  const cached = cache.get(word);
  if (cached) return cached;
  const usage = { the: 0, locative: 0, place: 0, seen: 0 };
  const term = searchTerm(word);
  const list = term ? index.terms.pairs(term) : [];
  const step = Math.max(1, Math.floor(list.length / 2 / SAMPLE));
  for (let i = 0; i < list.length && usage.seen < SAMPLE * 2; i += 2 * step) {
    const folded = tokenize(index.text(list[i])).map((token) => foldCase(token));
    folded.forEach((token, at) => {
      if (token !== word) return;
      usage.seen++;
      if (folded[at - 1] === 'the') usage.the++;
      if (LOCATIVE.has(folded[at - 1] ?? '')) usage.locative++;
      if (PLACE_ONLY.has(folded[at - 1] ?? '')) usage.place++;
    });
  }
  cache.set(word, usage);
  return usage;
}
