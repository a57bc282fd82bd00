import type { LanguageModel } from '../../lm/index.js';
import { scoreLine } from '../../lm/index.js';
import { distinctTermsOf, searchTerm } from '../../retrieval/index.js';

/** Longest snippet of a sentence quoted in a reply, in words. */
export const SNIPPET_WORDS = 42;
const CLAUSE_END = /(?<=[;:])\s+|(?<=,)\s+(?=(?:and|but|for|so|which|who|that|because|when|then)\b)/i;

/**
 * The part of a sentence that answers: the whole sentence when short, else the run of clauses
 * with the most question weight (and the answer, when one was found) within the word limit; among
 * equals the one the n-gram model finds most fluent. Cut ends are marked with "…".
 */
export function trimToQuestion(
  model: LanguageModel,
  sentence: string,
  weights: ReadonlyMap<string, number>,
  mustKeep: string | null,
): string {
  sentence = withoutPageReferences(sentence);
  const words = sentence.split(/\s+/);
  // A line that stops mid-sentence (a verse ending in a comma) is shown as running on.
  if (words.length <= SNIPPET_WORDS) return sentence.replace(/\s*[,;:]$/, '…');
  const clauses = sentence.split(CLAUSE_END).filter((clause) => clause.trim() !== '');
  let best = {
    text: words.slice(0, SNIPPET_WORDS).join(' '),
    value: Number.NEGATIVE_INFINITY,
    from: 0,
    to: 0,
  };
  for (let from = 0; from < clauses.length; from++) {
    let count = 0;
    for (let to = from; to < clauses.length; to++) {
      count += clauses[to].split(/\s+/).length;
      if (count > SNIPPET_WORDS && to > from) break;
      const text = clauses.slice(from, to + 1).join(' ');
      let value = weightOf(text, weights);
      if (mustKeep && text.toLowerCase().includes(mustKeep.toLowerCase())) value += 100;
      value += fluency(model, text) * 0.1;
      if (value > best.value) best = { text, value, from, to };
    }
  }
  const runWords = best.text.split(/\s+/);
  // One clause longer than the limit (a long list, a run-on sentence) is cut around the question's words.
  const start = runWords.length > SNIPPET_WORDS ? windowStart(runWords, weights, mustKeep) : 0;
  const cut = runWords.slice(start, start + SNIPPET_WORDS).join(' ');
  const head = best.from > 0 || start > 0 ? '…' : '';
  const tail = best.to < clauses.length - 1 || start + SNIPPET_WORDS < runWords.length ? '…' : '';
  return `${head}${cut.replace(/[,;:]$/, '')}${tail}`;
}

/** Words of context kept before the first word of the question in a window of a long clause. */
const WINDOW_CONTEXT = 3;
/** The words of a quote a reader takes in first (as the answer benchmark's lead counts them). */
const EARLY_WORDS = 15;
/** How far back a window's start may move to begin after a comma, at a phrase's start. */
const PHRASE_REACH = 8;

/**
 * Where the quote of a clause longer than SNIPPET_WORDS starts (a long list, a run-on sentence),
 * as a search engine's keyword-in-context snippet is cut: at the clause's start, where its subject
 * is, while the first window holds the question's weightiest word (and the short answer) early
 * enough to be read first; otherwise just before the first window that holds the most of the
 * question's weight, a few words of context kept, at a phrase's start (after a comma) where one is
 * near. (Asked which release a code name was, in a sentence that lists every release's: the
 * quote opens a few names before "Cordouan for release 5.0", not forty words before it.) Tuning
 * halves: leads +1, nothing lost, conversations unchanged; held out unchanged
 * (docs/benchmarks.md, seventeenth round).
 */
function windowStart(
  words: readonly string[],
  weights: ReadonlyMap<string, number>,
  mustKeep: string | null,
): number {
  const termsAt = words.map((word) =>
    word.split(/[^\p{L}\p{N}'’]+/u).flatMap((part) => {
      const term = part ? searchTerm(part) : null;
      return term && weights.has(term) ? [term] : [];
    }),
  );
  const keep = mustKeep?.toLowerCase() ?? null;
  /** The weight of the question's weightiest word among words from..to. */
  const heaviest = (from: number, to: number) => {
    let most = 0;
    for (let i = from; i < Math.min(words.length, to); i++)
      for (const term of termsAt[i]) most = Math.max(most, weights.get(term) ?? 0);
    return most;
  };
  const weightiest = heaviest(0, words.length);
  const heldFrom = (start: number): number => {
    const seen = new Set<string>();
    let value = 0;
    for (let i = start; i < Math.min(words.length, start + SNIPPET_WORDS); i++)
      for (const term of termsAt[i]) {
        if (seen.has(term)) continue;
        seen.add(term);
        value += weights.get(term) ?? 0;
      }
    const text = words.slice(start, start + SNIPPET_WORDS).join(' ');
    if (keep && text.toLowerCase().includes(keep)) value += 100;
    if (heaviest(start, start + SNIPPET_WORDS) >= weightiest) value += 50;
    return value;
  };
  // Every window is whole: one that ran past the clause's end would trade the words that open it
  // for a few at its end.
  const values = Array.from({ length: words.length - SNIPPET_WORDS + 1 }, (_, start) => heldFrom(start));
  const most = Math.max(...values);
  // Where the first window holds less than another but the question's weightiest word (and the
  // answer) all the same, the quote keeps the clause's start, where its subject is: what a later
  // window adds is lesser words.
  const firstHolds = heaviest(0, SNIPPET_WORDS) >= weightiest;
  const keptFirst = !keep || words.slice(0, SNIPPET_WORDS).join(' ').toLowerCase().includes(keep);
  if (values[0] < most && firstHolds && keptFirst) return 0;
  // Where the first window holds the most, the quote moves on only when the weightiest word would
  // come late in it, past the words a reader takes in first.
  if (values[0] === most) {
    const first = termsAt.findIndex((terms) => terms.some((term) => (weights.get(term) ?? 0) >= weightiest));
    if (first < EARLY_WORDS) return 0;
  }
  // The first run of windows that holds the most, from its latest start: nothing the question
  // asks is lost, and its first word opens the window.
  let start = values.indexOf(most);
  while (start + 1 < values.length && values[start + 1] === most) start++;
  const context = Math.max(0, start - WINDOW_CONTEXT);
  for (let back = start; back >= Math.max(0, start - PHRASE_REACH); back--) {
    if (back === 0 || /[,;:]$/.test(words[back - 1])) {
      if (values[back] === most) return back;
      break;
    }
  }
  while (start > context && values[start - 1] === most) start--;
  return start;
}

/**
 * A printed manual's cross-references in parentheses ("(see Section 3.2.3 [Pipelines], page 10)",
 * as Texinfo writes them in GNU manuals' PDFs) point the reader of paper elsewhere: quoted in a
 * reply they say nothing and crowd out the words that answer ("Exit immediately if a pipeline
 * (see ...), which may consist of a single simple command (see ...), a list (see ...) ...").
 */
export function withoutPageReferences(text: string): string {
  return text.replace(PAGE_REFERENCE, '');
}

const PAGE_REFERENCE =
  /\s*\((?:see|See) (?:Section|Chapter|Appendix) [\dA-Z][\d.]* \[[^\]]*\],? pages? \d+(?:[-–]\d+)?\)/g;

/** Sum of the question weights of the distinct terms a text contains. */
export function weightOf(text: string, weights: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const term of distinctTermsOf(text)) total += weights.get(term) ?? 0;
  return total;
}

/** Mean log10 probability per token under the forward model: how naturally the words run. */
function fluency(model: LanguageModel, text: string): number {
  const { logProbs } = scoreLine(model, text);
  let sum = 0;
  for (const value of logProbs) sum += value;
  return logProbs.length > 0 ? sum / logProbs.length : -10;
}
