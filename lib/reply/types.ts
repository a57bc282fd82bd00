import type { ReplyBudget } from './budgets.js';
import type { RandomSource } from './random.js';

/** What a reply is asked for. */
export interface ReplyRequest {
  message: string;
  /** Recent turns, oldest first (both sides); keywords are also taken from the last few. */
  history?: readonly string[];
  /** 0 = always the likeliest word, 1 = the model's own distribution; default 0.8. */
  temperature?: number;
  /** Longest reply in tokens, default 40. */
  maxTokens?: number;
  /** Default `replyBudgets.instant`. */
  budget?: ReplyBudget;
  /** Default `Math.random`; pass `mulberry32(seed)` to replay. */
  random?: RandomSource;
  /** Milliseconds clock, default `performance.now`. */
  now?: () => number;
}

/** Why the reply is not the best accepted candidate grown from a keyword. */
export type ReplyFallback = 'empty-model' | 'no-keywords' | 'all-rejected';

/** A reply and how it was reached (what the chat endpoint shows as the bot's thought). */
export interface Reply {
  text: string;
  /** Keywords found in the message and recent turns (swapped pronouns included). */
  keywords: string[];
  /** The keyword the chosen reply grew from, null when it grew from the sentence start. */
  seed: string | null;
  /** Candidates grown. */
  candidates: number;
  /** Candidates that passed the repetition and verbatim-copy checks. */
  accepted: number;
  /** Surprise of the chosen reply in bits (MegaHAL's score). */
  score: number;
  /** Longest run the chosen reply shares with the training text, in tokens. */
  copiedRun: number;
  elapsedMs: number;
  /** Words of the message the model does not know. */
  unknownWords: string[];
  fallback: ReplyFallback | null;
}
