import { type LanguageModel, usuallyCapitalised } from '../lm/index.js';
import type { PassageIndex } from '../retrieval/index.js';

/** Passages looked at, spread over the index, when counting the names a text mentions. */
const SAMPLED_PASSAGES = 4000;
/**
 * A capitalised word that does not start a sentence, and is not the first part of a compound
 * written with a hyphen or a dot ("Retry-After", "Node.js": a header's or a file's name, not a name).
 */
const INNER_NAME = /(?<=[\p{Ll},;]\s)(\p{Lu}\p{Ll}{2,})\b(?![-.]\p{L})/gu;
/** The same with the capitalised words or the one capital letter that go on with it ("Variant A", "Upstash Redis"). */
const INNER_LONG_NAME =
  /(?<=[\p{Ll},;]\s)(\p{Lu}\p{Ll}{2,}(?:\s(?:\p{Lu}\p{Ll}{2,}|\p{Lu})(?![\p{L}\p{N}]))+)(?![\p{L}\p{N}])/gu;

/**
 * "What can you tell me about Moses?": questions about the names the text mentions most
 * (capitalised inside sentences, in at least two passages, and capitalised wherever the model
 * saw them), from a sample of passages; for text whose headings give no questions.
 */
export function nameQuestions(passages: PassageIndex, model: LanguageModel, limit: number): string[] {
  const step = Math.max(1, Math.floor(passages.size / SAMPLED_PASSAGES));
  const counts = new Map<string, number>();
  const longCounts = new Map<string, number>();
  for (let id = 0; id < passages.size; id += step) {
    if (passages.kindOf(id) === 'code') continue;
    const text = passages.text(id);
    const seen = new Set<string>();
    for (const match of text.matchAll(INNER_NAME)) seen.add(match[1]!);
    for (const name of seen) counts.set(name, (counts.get(name) ?? 0) + 1);
    const long = new Set<string>();
    for (const match of text.matchAll(INNER_LONG_NAME)) long.add(match[1]!);
    for (const name of long) longCounts.set(name, (longCounts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .filter(([name, count]) => count >= 2 && usuallyCapitalised(model, name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, count]) => `What can you tell me about ${fullName(name, count, longCounts)}?`);
}

/**
 * A name's first word is asked about as the whole name where the text mostly writes it so: a
 * name of several words is one name ("Variant A"), and its first word alone names nothing.
 */
function fullName(name: string, count: number, longCounts: ReadonlyMap<string, number>): string {
  let best = name;
  let bestCount = 0;
  for (const [long, longCount] of longCounts) {
    if (long.startsWith(`${name} `) && longCount > bestCount) {
      best = long;
      bestCount = longCount;
    }
  }
  return bestCount * 2 > count ? best : name;
}
