import { foldCase, tokenize } from '../../lm/index.js';
import { type PassageIndex, searchTerm } from '../../retrieval/index.js';
import type { AnswerKind } from '../understand/shape.js';

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
 * writes after "the" (a person, not "the Dead sea"); for "where", one it writes after a word of
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
