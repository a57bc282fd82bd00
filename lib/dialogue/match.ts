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
  return similarityFrom(a, b, 0);
}

/**
 * `statementSimilarity(a, b)` when it is at least `floor`, else some value below `floor`: the
 * dialogue layer compares a message with some 200 statements and keeps only the close ones, so
 * the edit distance is skipped where the lengths alone rule the ratio out, and otherwise worked
 * out only within the band of distances that could still reach `floor`.
 */
export function similarityFrom(a: string, b: string, floor: number): number {
  if (a === b) return 1;
  if (a === '' || b === '') return 0;
  const longest = Math.max(a.length, b.length);
  const wordsA = wordsOf(a);
  const wordsB = wordSetOf(b);
  const overlapCounts = wordsA.length > 1 && wordsB.size > 1;
  // Neither measure can reach the floor: the lengths alone keep the distance above what the
  // ratio allows, and the overlap cannot count more shared words than `a` has.
  if (
    floor > 0 &&
    Math.abs(a.length - b.length) > Math.floor((1 - floor) * longest) + 1 &&
    (!overlapCounts || (2 * wordsA.length) / (wordsA.length + wordsB.size) < floor)
  )
    return 0;
  let shared = 0;
  for (const word of wordsA) if (wordsB.has(word)) shared++;
  // Word overlap alone says little for one-word statements ("good" vs "good night").
  const dice = overlapCounts ? (2 * shared) / (wordsA.length + wordsB.size) : 0;
  // The ratio counts only when it beats both the floor and the overlap: 1 - d/longest >= need.
  const need = Math.max(floor, dice);
  const most = need <= 0 ? longest : Math.floor((1 - need) * longest) + 1;
  // The letters the two do not share bound the edit distance from below: most statements of a
  // similar length are ruled out here without filling the table.
  if (letterDifference(a, b) > most) return dice;
  const distance = boundedEditDistance(a, b, most);
  if (distance > most) return dice;
  const ratio = 1 - distance / longest;
  return Math.max(ratio, dice);
}

/** Word sets of the known statements compared (the persona's and trained ones recur on every message). */
const wordSets = new Map<string, Set<string>>();
const WORD_CACHE_LIMIT = 20_000;
/**
 * The words of the message, compared with one statement after another: the last one only (a
 * cache of every message would fill with messages seen once, and then split them per statement).
 */
let lastWords: { text: string; words: string[] } | undefined;

function wordsOf(text: string): string[] {
  if (lastWords?.text !== text) lastWords = { text, words: text.split(' ') };
  return lastWords.words;
}

function wordSetOf(text: string): Set<string> {
  let words = wordSets.get(text);
  if (!words) {
    words = new Set(text.split(' '));
    if (wordSets.size < WORD_CACHE_LIMIT) wordSets.set(text, words);
  }
  return words;
}

/** Bins of a letter count: a character's code modulo 64 (letters, digits and the space apart). */
const LETTER_BINS = 64;

/** A statement's characters counted by bin, with the bins it uses (for a short loop). */
interface LetterCounts {
  counts: Int32Array;
  bins: number[];
}

/** The known statements' counts (the persona's and trained ones recur on every message). */
const letterCache = new Map<string, LetterCounts>();
const LETTER_CACHE_LIMIT = 5_000;
/** The message's, compared with one statement after another. */
let lastLetters: { text: string; letters: LetterCounts } | undefined;

function lettersOf(text: string, known: boolean): LetterCounts {
  if (!known && lastLetters?.text === text) return lastLetters.letters;
  let letters = known ? letterCache.get(text) : undefined;
  if (!letters) {
    const counts = new Int32Array(LETTER_BINS);
    const bins: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const bin = text.charCodeAt(i) & (LETTER_BINS - 1);
      if (counts[bin]++ === 0) bins.push(bin);
    }
    letters = { counts, bins };
    if (!known) lastLetters = { text, letters };
    else if (letterCache.size < LETTER_CACHE_LIMIT) letterCache.set(text, letters);
  }
  return letters;
}

/**
 * A lower bound of the edit distance of `a` and `b` (the bag distance): every character of one
 * that the other lacks, counted by bin, needs an edit of its own (a substitution mends one of each
 * side). Characters that share a bin count as alike, which only lowers the bound.
 */
function letterDifference(a: string, b: string): number {
  const countsA = lettersOf(a, false);
  const countsB = lettersOf(b, true).counts;
  let surplus = 0;
  for (const bin of countsA.bins) {
    const more = countsA.counts[bin] - countsB[bin];
    if (more > 0) surplus += more;
  }
  // What b has beyond a: the surplus of a less the difference of the lengths.
  const lack = surplus - (a.length - b.length);
  return surplus > lack ? surplus : lack;
}

let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/**
 * Levenshtein distance of `a` and `b` when it is at most `most`, else some number above `most`
 * (only the cells within `most` of the diagonal are filled: beyond it every path costs more).
 */
function boundedEditDistance(a: string, b: string, most: number): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > most) return most + 1;
  if (previousRow.length <= n + 1) {
    previousRow = new Int32Array(2 * (n + 1));
    currentRow = new Int32Array(2 * (n + 1));
  }
  const far = most + 1;
  let previous = previousRow;
  let current = currentRow;
  for (let j = 0; j <= n; j++) previous[j] = j <= most ? j : far;
  for (let i = 1; i <= m; i++) {
    const low = Math.max(1, i - most);
    const high = Math.min(n, i + most);
    current[0] = i <= most ? i : far;
    if (low > 1) current[low - 1] = far;
    const code = a.charCodeAt(i - 1);
    let rowBest = current[0];
    for (let j = low; j <= high; j++) {
      const substitute = previous[j - 1] + (code === b.charCodeAt(j - 1) ? 0 : 1);
      const remove = previous[j] + 1;
      const insert = current[j - 1] + 1;
      let cell = substitute < remove ? substitute : remove;
      if (insert < cell) cell = insert;
      if (cell > far) cell = far;
      current[j] = cell;
      if (cell < rowBest) rowBest = cell;
    }
    if (high < n) current[high + 1] = far;
    if (rowBest > most) return far;
    const swap = previous;
    previous = current;
    current = swap;
  }
  return previous[n];
}

/**
 * Finds the statements of a fixed list that could be at least `floor` alike to a message, so the
 * rest are never compared: the edit-distance ratio reaches `floor` only when the lengths differ by
 * at most `(1 - floor)` of the longer, and the word overlap only when a word is shared.
 */
export class StatementFinder {
  private readonly byLength: number[][] = [];
  private readonly byWord = new Map<string, number[]>();
  private readonly marks: Uint32Array;
  private stamp = 0;

  constructor(readonly statements: readonly string[]) {
    this.marks = new Uint32Array(statements.length);
    statements.forEach((statement, at) => {
      const sameLength = this.byLength[statement.length] ?? [];
      this.byLength[statement.length] = sameLength;
      sameLength.push(at);
      for (const word of new Set(statement.split(' '))) {
        const list = this.byWord.get(word) ?? [];
        this.byWord.set(word, list);
        list.push(at);
      }
    });
  }

  /** Indexes of the statements that may reach `floor` (0 < floor <= 1), ascending. */
  candidates(message: string, floor: number): number[] {
    // Marks of this call (a stamp per call instead of a fresh set), read back in index order.
    const marks = this.marks;
    if (this.stamp === 0xffffffff) {
      marks.fill(0);
      this.stamp = 0;
    }
    const stamp = ++this.stamp;
    const length = message.length;
    for (let other = 0; other < this.byLength.length; other++) {
      const list = this.byLength[other];
      if (list && Math.abs(length - other) <= Math.floor((1 - floor) * Math.max(length, other)) + 1)
        for (const at of list) marks[at] = stamp;
    }
    for (const word of message.split(' ')) {
      const list = this.byWord.get(word);
      if (list) for (const at of list) marks[at] = stamp;
    }
    const found: number[] = [];
    for (let at = 0; at < marks.length; at++) if (marks[at] === stamp) found.push(at);
    return found;
  }
}
