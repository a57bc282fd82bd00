import { normalizeWord, stopWords } from './stop-words.js';

/** Abbreviations that are usually followed by a capitalised word without ending the sentence. */
const ABBREVIATIONS = new Set(
  `mr mrs ms dr prof st mt ft gen col lt sgt capt cmdr adm gov sen rep rev hon jr sr no nos vol vols
  fig figs ch pp approx ca cf vs jan feb mar apr jun jul aug sep sept oct nov dec`.split(/\s+/),
);
/** Terminal punctuation, closing quotes or brackets after it, then the space before the next sentence. */
const CANDIDATE_END = /([.!?…]+)["'”’)\]]*(\s+)/g;
/** What may open a sentence: a capital, a digit, or an opening quote or bracket. */
const SENTENCE_START = /^["'“‘([]?[\p{Lu}\p{N}]/u;
/** The first sentence defines the subject, so it counts as much as one shared word. */
const FIRST_SENTENCE_BONUS = 1;

/**
 * Splits text into sentences without breaking at abbreviations (`U.S.`, `e.g.`, `Dr.`) or at
 * initials (`Alan M. Turing`). Line breaks always end a sentence.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const paragraph of text.split(/\n+/)) {
    let start = 0;
    for (const match of paragraph.matchAll(CANDIDATE_END)) {
      const end = match.index + match[0].length - match[2].length;
      const rest = paragraph.slice(match.index + match[0].length);
      if (!SENTENCE_START.test(rest)) continue;
      if (match[1] === '.' && endsWithAbbreviation(paragraph.slice(start, match.index))) continue;
      sentences.push(paragraph.slice(start, end));
      start = match.index + match[0].length;
    }
    sentences.push(paragraph.slice(start));
  }
  return sentences.map((sentence) => sentence.replace(/\s+/g, ' ').trim()).filter((s) => s !== '');
}

/**
 * The sentences of an extract most relevant to a question, at most `max`, in their original
 * order: ranked by how many of the question's content words they share, the first sentence
 * favoured. With no content words in the question, the opening sentences.
 */
export function relevantSentences(extract: string, question: string, max = 3): string[] {
  const sentences = splitSentences(extract);
  const wanted = new Set(contentStems(question));
  if (wanted.size === 0) return sentences.slice(0, max);
  return sentences
    .map((sentence, index) => {
      const have = new Set(contentStems(sentence));
      let score = index === 0 ? FIRST_SENTENCE_BONUS : 0;
      for (const stem of wanted) if (have.has(stem)) score += 1;
      return { sentence, index, score };
    })
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(0, max))
    .sort((a, b) => a.index - b.index)
    .map((ranked) => ranked.sentence);
}

/** The word before a full stop is an initial, a dotted abbreviation or a known short form. */
function endsWithAbbreviation(textBeforeDot: string): boolean {
  const word = /([\p{L}.]+)$/u.exec(textBeforeDot)?.[1];
  if (!word) return false;
  if (/^\p{L}$/u.test(word)) return true;
  if (word.includes('.')) return true;
  return ABBREVIATIONS.has(word.toLowerCase());
}

/** Lower-cased, lightly stemmed words that are not stop words. */
function contentStems(text: string): string[] {
  const words = text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu) ?? [];
  return words
    .map(normalizeWord)
    .filter((word) => !stopWords.has(word))
    .map((word) => stem(word.replace(/'s$/, '')))
    .filter((word) => word.length > 1 || /\d/.test(word));
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  if (word.length > 4 && word.endsWith('e')) return word.slice(0, -1);
  return word;
}
