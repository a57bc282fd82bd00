import type { LanguageModel } from '../../lm/index.js';
import { scoreLine } from '../../lm/index.js';
import { distinctTermsOf } from '../../retrieval/index.js';

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
  const cut = best.text.split(/\s+/).slice(0, SNIPPET_WORDS).join(' ');
  const head = best.from > 0 ? '…' : '';
  const tail = best.to < clauses.length - 1 || cut !== best.text ? '…' : '';
  return `${head}${cut.replace(/[,;:]$/, '')}${tail}`;
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
