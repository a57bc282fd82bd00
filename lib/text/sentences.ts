/** Abbreviations after which a full stop does not end a sentence (case-folded, without the dot). */
const ABBREVIATIONS = new Set(
  'e.g i.e etc vs cf mr mrs ms dr prof st jr sr no fig approx dept inc ltd co ca vol ch p pp'.split(' '),
);

/**
 * A sentence end: . ! ? or … (closing quotes/brackets kept), then space, then a likely sentence
 * start: a capital or a digit, or a Markdown link, which opens a sentence whatever the case of its
 * text ("[abstract-logging](…) is used for this purpose.": a package's name is lower case).
 */
const BOUNDARY = /([.!?…]+["'’”)\]]*)\s+(?=["'‘“([`*_]?[\p{Lu}\p{N}`]|\[[^\]\n]+\]\()/gu;

/**
 * Splits running text into sentences at . ! ? followed by a capital, a digit or a link, except after a
 * known abbreviation or a single initial ("J. R. Smith"). Whitespace inside is left as it was.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(BOUNDARY)) {
    const end = (match.index ?? 0) + match[1].length;
    if (match[1].startsWith('.') && !endsSentenceBefore(text, match.index ?? 0)) continue;
    const sentence = text.slice(start, end).trim();
    if (sentence) sentences.push(sentence);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

function endsSentenceBefore(text: string, dotIndex: number): boolean {
  const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, dotIndex - 12), dotIndex))?.[1] ?? '';
  // An initial stands alone ("J. R. Smith"); a capital joined to what comes before it ("Ctrl-C.",
  // "Shift+F.") ends a key's or a name's last part, and its full stop ends the sentence.
  const joined = /[-+/_\p{N}]/u.test(text[dotIndex - word.length - 1] ?? ' ');
  if (word.length === 1 && /\p{Lu}/u.test(word) && !joined) return false;
  return !ABBREVIATIONS.has(word.toLowerCase());
}
