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
/** A phrase for what the service was taught ("The tar manual, Globbing and 2 more"). */
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

/**
 * What was taught, as a person would name it: the documents' titles (a document's first heading,
 * else its file name in words: "guides/getting-started.md" -> "getting started"), the largest
 * documents first (they are what the service knows most about), each title once.
 */
function taughtPhrase(passages: PassageIndex): string {
  if (passages.size === 0) return 'nothing yet';
  const documents = new Map<string, { heading: string; file: string; passages: number }>();
  passages.sections.forEach((section, id) => {
    const key = section.documentId ?? section.file ?? section.path[0];
    if (!key) return;
    const document = documents.get(key) ?? { heading: '', file: '', passages: 0 };
    document.heading ||= section.path[0] ?? '';
    document.file ||= section.file ? fileTitle(section.file) : '';
    document.passages += passages.sectionSizes[id] ?? 0;
    documents.set(key, document);
  });
  const titles: string[] = [];
  const seen = new Set<string>();
  for (const { heading, file } of [...documents.values()].sort((a, b) => b.passages - a.passages)) {
    // A heading's section number ("1. Getting Started") is the manual's layout, not its name.
    const unnumbered = heading.replace(/^\s*(?:\d+\.)+\s*/, '');
    // A long first heading is a sentence about the document ("semver(1) -- The semantic versioner
    // for npm"), not its name: the file's name says it shorter.
    const title = unnumbered && (unnumbered.split(/\s+/).length <= TITLE_WORDS || !file) ? unnumbered : file;
    if (!title || seen.has(title.toLowerCase())) continue;
    seen.add(title.toLowerCase());
    titles.push(title);
  }
  if (titles.length === 0) return 'the text I was taught';
  const shown = titles.slice(0, 3);
  const more = titles.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Most words a first heading may have to name its document. */
const TITLE_WORDS = 4;

/** A file's name in words: its last part, extension dropped, - and _ as spaces. */
function fileTitle(file: string): string {
  const name = file.split('/').pop() ?? file;
  return name
    .replace(/\.[A-Za-z0-9]+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
}

function examplesOf(passages: PassageIndex, model: LanguageModel): string[] {
  return suggestedQuestions({ passages, model })
    .slice(0, EXAMPLES)
    .map((question) => `"${question}"`);
}
