import type { LanguageModel } from '../lm/index.js';
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

/** Two or three questions the taught text answers, as lib/suggestions makes them (headings, else the names it mentions most). */
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
  return suggestedQuestions({ passages, model })
    .slice(0, EXAMPLES)
    .map((question) => `"${question}"`);
}
