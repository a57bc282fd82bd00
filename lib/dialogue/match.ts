/** A statement as it is compared: lower case, contractions spelled out, punctuation gone. */
export function normalizeStatement(text: string): string {
  let out = text.toLowerCase().replace(/[’‘`]/g, "'");
  for (const [pattern, replacement] of CONTRACTIONS) out = out.replace(pattern, replacement);
  return out
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const CONTRACTIONS: [RegExp, string][] = [
  [/\bwhat's\b/g, 'what is'],
  [/\bwhats\b/g, 'what is'],
  [/\bthat's\b/g, 'that is'],
  [/\bthats\b/g, 'that is'],
  [/\bit's\b/g, 'it is'],
  [/\bhow's\b/g, 'how is'],
  [/\bwho's\b/g, 'who is'],
  [/\bi'm\b/g, 'i am'],
  [/\bim\b/g, 'i am'],
  [/\byou're\b/g, 'you are'],
  [/\bur\b/g, 'you are'],
  [/\bu\b/g, 'you'],
  [/\bcan't\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\bn't\b/g, ' not'],
  [/n't\b/g, ' not'],
  [/\blet's\b/g, 'let us'],
  [/\bi've\b/g, 'i have'],
  [/\bi'd\b/g, 'i would'],
];

/**
 * How alike two normalized statements are, 0-1: the better of the edit-distance ratio of the
 * strings (typos, small changes) and the overlap of their words (word order).
 */
export function statementSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a === '' || b === '') return 0;
  const ratio = 1 - editDistance(a, b) / Math.max(a.length, b.length);
  const wordsA = a.split(' ');
  const wordsB = new Set(b.split(' '));
  const shared = wordsA.filter((word) => wordsB.has(word)).length;
  const dice = (2 * shared) / (wordsA.length + wordsB.size);
  // Word overlap alone says little for one-word statements ("good" vs "good night").
  return Math.max(ratio, wordsA.length > 1 && wordsB.size > 1 ? dice : 0);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}
