import { type LanguageModel, usuallyCapitalised } from '../lm/index.js';
import type { PassageIndex } from '../retrieval/index.js';
import { suggestedQuestions } from '../suggestions/index.js';

/** What was taught, in a phrase and a few questions it can answer; worked out once per index size. */
interface Summary {
  size: number;
  taught: string;
  examples: string[];
}

const summaries = new WeakMap<PassageIndex, Summary>();
const EXAMPLES = 3;
/** A phrase for what the service was taught ("tar.md, glob.md and 2 more documents"). */
export function describeTaught(passages: PassageIndex, model: LanguageModel): string {
  return summaryOf(passages, model).taught;
}

/** Two or three questions the taught text answers, from its section headings (lib/suggestions) or its most mentioned names. */
export function exampleQuestions(passages: PassageIndex, model: LanguageModel): string[] {
  return summaryOf(passages, model).examples;
}

function summaryOf(passages: PassageIndex, model: LanguageModel): Summary {
  const cached = summaries.get(passages);
  if (cached && cached.size === passages.size) return cached;
  const summary = {
    size: passages.size,
    taught: taughtPhrase(passages),
    examples: examplesOf(passages, model),
  };
  summaries.set(passages, summary);
  return summary;
}

function taughtPhrase(passages: PassageIndex): string {
  if (passages.size === 0) return 'nothing yet';
  const files = [...new Set(passages.sections.map((section) => section.file).filter(Boolean))] as string[];
  const titles = [...new Set(passages.sections.map((section) => section.path[0]).filter(Boolean))];
  const names = files.length > 0 ? files : titles;
  if (names.length === 0) return 'the text I was taught';
  const shown = names.slice(0, 3);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

function examplesOf(passages: PassageIndex, model: LanguageModel): string[] {
  const fromHeadings = suggestedQuestions({ passages, model }).map((question) => `"${question}"`);
  if (fromHeadings.length >= 2) return fromHeadings.slice(0, EXAMPLES);
  return [...fromHeadings, ...nameQuestions(passages, model)].slice(0, EXAMPLES);
}

/** "What do the documents say about Moses?": the names the text mentions most (capitalised inside sentences), from a sample of passages. */
function nameQuestions(passages: PassageIndex, model: LanguageModel): string[] {
  const step = Math.max(1, Math.floor(passages.size / SAMPLED_PASSAGES));
  const counts = new Map<string, number>();
  for (let id = 0; id < passages.size; id += step) {
    if (passages.kindOf(id) === 'code') continue;
    const seen = new Set<string>();
    for (const match of passages.text(id).matchAll(INNER_NAME)) seen.add(match[1]);
    for (const name of seen) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .filter(([name, count]) => count >= 2 && usuallyCapitalised(model, name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, EXAMPLES)
    .map(([name]) => `"What do the documents say about ${name}?"`);
}

const SAMPLED_PASSAGES = 4000;
/** A capitalised word that does not start a sentence. */
const INNER_NAME = /(?<=[\p{Ll},;]\s)(\p{Lu}\p{Ll}{2,})\b/gu;
