import type { HistoryItem } from './schema.js';

/** Tokens of history kept for the reply; older turns beyond it are dropped. */
export const HISTORY_TOKEN_BUDGET = 2000;

/**
 * Keeps the newest turns whose total token count fits the budget, dropping the oldest first,
 * so a long history is cut rather than rejected. Returns the kept turns and how many were dropped.
 */
export function fitHistory(
  history: HistoryItem[],
  countTokens: (text: string) => number,
  budget = HISTORY_TOKEN_BUDGET,
): { kept: HistoryItem[]; dropped: number } {
  let used = 0;
  let start = history.length;
  while (start > 0) {
    const cost = countTokens(history[start - 1]!.content);
    if (used + cost > budget) break;
    used += cost;
    start--;
  }
  return { kept: history.slice(start), dropped: start };
}
