/** How much work one reply may take: it stops at whichever limit comes first (at least one candidate). */
export interface ReplyBudget {
  /** Most candidate replies to grow and score. */
  candidates: number;
  /** Most wall-clock milliseconds to spend growing candidates. */
  timeMs: number;
}

/** The budgets of the chat modes, smallest first. */
export const replyBudgets = {
  instant: { candidates: 48, timeMs: 40 },
  expert: { candidates: 400, timeMs: 400 },
  apex: { candidates: 3000, timeMs: 2500 },
} as const satisfies Record<string, ReplyBudget>;

export type ReplyMode = keyof typeof replyBudgets;
