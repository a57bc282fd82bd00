import type { KneserNeyEstimator } from '../estimation/kneser-ney.js';
import type { Vocabulary } from '../words/vocabulary.js';
import { BOS } from '../words/vocabulary.js';
import { type ArpaTables, kneserNeyTables } from './arpa-tables.js';

/**
 * The forward model as an ARPA file laid out as lmplz writes it: unigrams in id order, higher
 * orders sorted by their words read right to left, numbers as the shortest decimal that reads back
 * as the same 32-bit float, `<s>` with probability 0.
 */
export function toArpa(estimator: KneserNeyEstimator, vocabulary: Vocabulary): string {
  return writeArpa(kneserNeyTables(estimator), vocabulary);
}

/** Writes backoff tables as ARPA text. */
export function writeArpa(tables: ArpaTables, vocabulary: Vocabulary): string {
  const { order, levels } = tables;
  const sorted: Int32Array[] = [new Int32Array(0)];
  const ranks: Int32Array[] = [new Int32Array(0)];
  for (let k = 1; k <= order; k++) {
    const level = levels[k];
    const ids: number[] = [];
    for (let id = 0; id < level.size; id++) if (tables.present(k, id)) ids.push(id);
    if (k > 1) {
      const below = ranks[k - 1];
      ids.sort(
        (a, b) => level.wordOf(a) - level.wordOf(b) || below[level.contextOf(a)] - below[level.contextOf(b)],
      );
    }
    const rank = new Int32Array(level.size);
    ids.forEach((id, position) => {
      rank[id] = position;
    });
    sorted.push(Int32Array.from(ids));
    ranks.push(rank);
  }
  const parts: string[] = ['\\data\\\n'];
  for (let k = 1; k <= order; k++) parts.push(`ngram ${k}=${sorted[k].length}\n`);
  for (let k = 1; k <= order; k++) {
    parts.push(`\n\\${k}-grams:\n`);
    const logProb = tables.logProb[k];
    const logBackoff = k < order ? tables.logBackoff[k] : null;
    const lines: string[] = [];
    for (const id of sorted[k]) {
      const words = ngramWords(levels, k, id, vocabulary);
      const prob = k === 1 && id === BOS ? '0' : formatArpaNumber(logProb[id]);
      lines.push(logBackoff ? `${prob}\t${words}\t${formatArpaNumber(logBackoff[id])}` : `${prob}\t${words}`);
    }
    parts.push(lines.join('\n'), '\n');
  }
  parts.push('\n\\end\\\n');
  return parts.join('');
}

function ngramWords(levels: ArpaTables['levels'], k: number, id: number, vocabulary: Vocabulary): string {
  let words = vocabulary.word(levels[k].wordOf(id));
  let entry = id;
  for (let j = k; j > 1; j--) {
    entry = levels[j].contextOf(entry);
    words = vocabulary.word(levels[j - 1].wordOf(entry)) + ' ' + words;
  }
  return words;
}

/** Shortest decimal that reads back as the same 32-bit float, as KenLM prints its numbers. */
export function formatArpaNumber(value: number): string {
  if (value === 0 || Object.is(value, -0)) return '0';
  if (!Number.isFinite(value)) return value > 0 ? '99' : '-99';
  const single = Math.fround(value);
  for (let digits = 1; digits < 10; digits++) {
    const text = single.toPrecision(digits);
    if (Math.fround(Number(text)) === single) return String(Number(text));
  }
  return String(single);
}
