import { tokenize } from '../lm/index.js';

/** What a reply cut short ends with. */
export const CUT_MARK = '…';

/** A reply within a token limit, and whether anything was cut to get there. */
export interface LimitedText {
  text: string;
  cut: boolean;
}

/**
 * Tokens of a reply as every endpoint counts them (`maxTokens`, Variant B's `tokens`, `usage`):
 * words (runs of letters and digits, apostrophes inside kept) and each punctuation mark, as the
 * n-gram model tokenises text. "Naomi." is two tokens, "[1]" three.
 */
export function countTokens(text: string): number {
  return tokenize(text).length;
}

/** Trailing marks that would dangle at a cut (a comma, an opening bracket, a table bar ...). */
const DANGLING = /[,;:([{\-–—/|#>=+&]+$/u;
const FENCE_LINE = /^ {0,3}(```|~~~)/;
const SENTENCE_END = /[.!?]["'’”)\]]*$/u;
const WORD_TOKEN = /^[\p{L}\p{M}\p{N}]/u;

/**
 * The reply within `max` tokens. A reply that fits is returned as is; a longer one is cut after
 * the last whole word that fits (never inside a word or a `[n]` citation) and ends with "…",
 * counted in the limit; a dangling comma or bracket is dropped, an open code fence closed and an
 * open inline code span ended. With no room for a word and the mark, the first word stands alone.
 */
export function limitTokens(text: string, max: number): LimitedText {
  const limit = Math.max(1, Math.floor(max));
  if (countTokens(text) <= limit) return { text, cut: false };
  const ends: number[] = [];
  let tokens = 0;
  for (const word of text.matchAll(/\S+/g)) {
    tokens += countTokens(word[0]);
    if (tokens > limit - 1) break;
    ends.push(word.index + word[0].length);
  }
  for (let w = ends.length; w >= 1; w--) {
    const finished = finishCut(text.slice(0, ends[w - 1]));
    if (finished !== undefined && countTokens(finished) <= limit) return { text: finished, cut: true };
  }
  const first = tokenize(text).find((token) => WORD_TOKEN.test(token)) ?? '';
  if (limit >= 2 && first) return { text: `${first}${CUT_MARK}`, cut: true };
  return { text: first || CUT_MARK, cut: true };
}

/**
 * A cut reply made to read well: the kept prefix (whole words) without dangling marks, with its
 * open code fence or inline code closed, and the cut mark. Undefined when the prefix cannot end
 * there (its last word is only dangling marks, or it stops on a code fence's opening line).
 */
export function finishCut(prefix: string): string | undefined {
  const lastWordStart = prefix.search(/\S+$/);
  const lastWord = prefix.slice(lastWordStart).replace(DANGLING, '');
  if (lastWord === '') return undefined;
  let kept = prefix.slice(0, lastWordStart) + lastWord;
  const lines = kept.split('\n');
  const fenceLines = lines.flatMap((line, i) => (FENCE_LINE.test(line) ? [i] : []));
  const openFence = fenceLines.length % 2 === 1 ? fenceLines.at(-1)! : -1;
  if (openFence === lines.length - 1) return undefined;
  if (openFence >= 0) {
    const marker = FENCE_LINE.exec(lines[openFence]!)![1];
    return `${kept}\n${marker}\n${CUT_MARK}`;
  }
  const outsideCode = lines.filter((_, i) => !insideFence(i, fenceLines)).join('\n');
  const inlineTicks = outsideCode.replace(/```|~~~/g, '').match(/`/g)?.length ?? 0;
  if (inlineTicks % 2 === 1) kept += '`';
  return SENTENCE_END.test(kept) ? `${kept} ${CUT_MARK}` : `${kept}${CUT_MARK}`;
}

function insideFence(line: number, fenceLines: number[]): boolean {
  for (let i = 0; i + 1 < fenceLines.length; i += 2) {
    if (line >= fenceLines[i]! && line <= fenceLines[i + 1]!) return true;
  }
  return false;
}

/** A sink for streamed pieces that never lets more than a limit through. */
export interface LimitedStream<Sink> {
  /** Where the producer sends its pieces (keeps the original sink's `signal`). */
  sink: Sink;
  /**
   * The whole text as the producer finished it, limited; sends what the stream still owes, so
   * the pieces sent add up to exactly the returned text.
   */
  finish(full: string): LimitedText;
}

/**
 * Limits a stream of pieces (an external model's answer) to `max` tokens as `limitTokens` limits
 * the whole: a word is passed on once the next one has begun and only while the reply cut right
 * after it would still fit, so nothing sent is ever taken back, and `finish` sends the rest
 * (the held-back words, the cut mark) of exactly `limitTokens(full, max)`.
 */
export function limitStream<Sink extends (text: string) => void>(
  max: number,
  onDelta: Sink,
): LimitedStream<Sink> {
  let received = '';
  let sent = '';
  let scanned = 0;
  let full = false;
  const sink = Object.assign((piece: string) => {
    received += piece;
    if (full) return;
    const complete = /\S+(?=\s)/g;
    complete.lastIndex = scanned;
    for (let word = complete.exec(received); word; word = complete.exec(received)) {
      const end = word.index + word[0].length;
      scanned = end;
      const prefix = received.slice(0, end);
      const finished = finishCut(prefix);
      if (finished === undefined) continue;
      if (countTokens(finished) > max) {
        full = true;
        break;
      }
      if (!finished.startsWith(prefix)) continue;
      onDelta(prefix.slice(sent.length));
      sent = prefix;
    }
  }, onDelta) as Sink;
  return {
    sink,
    finish(text) {
      const limited = limitTokens(text, max);
      if (limited.text.startsWith(sent)) {
        if (limited.text.length > sent.length) onDelta(limited.text.slice(sent.length));
        return limited;
      }
      return { text: sent, cut: true };
    },
  };
}
