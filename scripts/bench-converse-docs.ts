import { type BenchClient, type BenchReply, type BenchTurn, benchClient } from './bench-chat.js';
import { HIT_WORDS, replyMentions } from './bench-qa-core.js';
import { benchServices } from './bench-services.js';
import {
  type ConverseConversation,
  type ConverseTurn,
  type Half,
  type QuestionSet,
  readableText,
  setDocuments,
  trainSet,
} from './bench-sets.js';

/**
 * The documentation part of `npm run bench:converse` (bench/converse/docs.json): conversations on
 * a set of bench/qa/sets.json, through Variant A (one session) and Variant B (standard, its own
 * earlier replies as `history`). For a follow-up it asks the follow-up in the conversation, the
 * written-out form in a fresh session, and the follow-up alone in a fresh session ("bare"), and
 * notes when the conversation's reply is the bare reply word for word (the history unused). A
 * self-contained question after a conversation is compared with the same question asked fresh. A
 * social turn fits when it matches its pattern, cites no sources and holds no document text.
 */

export const CONVERSE_PATHS = ['A', 'B'] as const;
export type ConversePath = (typeof CONVERSE_PATHS)[number];

export interface TurnResult {
  conversation: number;
  half?: Half;
  path: ConversePath;
  kind: 'first' | 'follow-up' | 'self-contained' | 'social';
  q: string;
  reply: string;
  hit: boolean;
  /** A follow-up: the written-out form's reply in a fresh session, and whether it hits. */
  written?: { reply: string; hit: boolean };
  /** A follow-up: the follow-up alone in a fresh session; `same` when the conversation's reply equals it. */
  bare?: { reply: string; hit: boolean; same: boolean };
  /** A self-contained question: the same question asked fresh. */
  fresh?: { reply: string; hit: boolean };
  /** A social turn: fitting (its pattern, no sources, no document text), and why not. */
  fits?: boolean;
  misfit?: string;
  thought?: string;
}

/** Words of six in a row that a reply shares with the documents: document text in a social reply. */
const SHINGLE = 6;
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

function shingles(text: string): Set<string> {
  const words = wordsOf(text);
  const found = new Set<string>();
  for (let i = 0; i + SHINGLE <= words.length; i++) found.add(words.slice(i, i + SHINGLE).join(' '));
  return found;
}

function sharesText(reply: string, documentShingles: Set<string>): boolean {
  const words = wordsOf(reply);
  for (let i = 0; i + SHINGLE <= words.length; i++) {
    if (documentShingles.has(words.slice(i, i + SHINGLE).join(' '))) return true;
  }
  return false;
}

const same = (x: string, y: string) => x.replace(/\s+/g, ' ').trim() === y.replace(/\s+/g, ' ').trim();

let sessions = 0;
/** One conversation on one path: each call asks the next message with what came before. */
export function conversationOn(client: BenchClient, path: ConversePath, maxTokens?: number) {
  const session = `converse-docs-${++sessions}`;
  const turns: BenchTurn[] = [];
  return async (message: string): Promise<BenchReply> => {
    const limit = maxTokens ? { maxTokens } : {};
    const reply =
      path === 'A'
        ? await client.askA(message, { sessionId: session, modelMode: 'expert', ...limit })
        : await client.askB(message, { history: [...turns], ...limit });
    turns.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
    return reply;
  };
}

/** Trains a set into a fresh install (the starter guide in place, as a new site has it). */
export async function trainedClient(
  set: QuestionSet,
  corpora: string,
): Promise<{ client: BenchClient; documentShingles: Set<string> }> {
  const client = benchClient(await benchServices(undefined, { starter: true }));
  const { documents } = await setDocuments(set, corpora);
  await trainSet(client, documents);
  return { client, documentShingles: shingles(documents.map(readableText).join('\n')) };
}

/** Runs the conversations of one set on both paths; `onTurn` sees each result as it comes. */
export async function runConversations(
  client: BenchClient,
  documentShingles: Set<string>,
  conversations: { index: number; conversation: ConverseConversation }[],
  onTurn?: (result: TurnResult, turn: ConverseTurn) => void,
): Promise<TurnResult[]> {
  const results: TurnResult[] = [];
  const fresh = (path: ConversePath, message: string) => conversationOn(client, path)(message);
  for (const { index, conversation } of conversations) {
    for (const path of CONVERSE_PATHS) {
      const next = conversationOn(client, path);
      for (const [i, turn] of conversation.turns.entries()) {
        const reply = await next(turn.q);
        const acceptable = turn.a ?? [];
        const kind: TurnResult['kind'] = turn.social
          ? 'social'
          : turn.std
            ? 'follow-up'
            : turn.fresh
              ? 'self-contained'
              : 'first';
        const result: TurnResult = {
          conversation: index,
          ...(conversation.half ? { half: conversation.half } : {}),
          path,
          kind,
          q: turn.q,
          reply: reply.text,
          hit: acceptable.length > 0 && replyMentions(reply, acceptable, HIT_WORDS),
          ...(reply.thought && i > 0 ? { thought: reply.thought } : {}),
        };
        if (kind === 'follow-up') {
          const written = await fresh(path, turn.std!);
          const bare = await fresh(path, turn.q);
          result.written = { reply: written.text, hit: replyMentions(written, acceptable, HIT_WORDS) };
          result.bare = {
            reply: bare.text,
            hit: replyMentions(bare, acceptable, HIT_WORDS),
            same: same(reply.text, bare.text),
          };
        } else if (kind === 'self-contained') {
          const alone = await fresh(path, turn.q);
          result.fresh = { reply: alone.text, hit: replyMentions(alone, acceptable, HIT_WORDS) };
        } else if (kind === 'social') {
          // Variant B's JSON has no sources today: there only the document text gives a citing reply away.
          const misfit = !new RegExp(turn.ok ?? '.', 'i').test(reply.text)
            ? 'does not match its pattern'
            : /I don't know about/i.test(reply.text)
              ? 'searched the documents for it'
              : (reply.sources ?? 0) > 0
                ? 'cites sources'
                : sharesText(reply.text, documentShingles)
                  ? 'holds document text'
                  : '';
          result.fits = misfit === '';
          if (misfit) result.misfit = misfit;
        }
        results.push(result);
        onTurn?.(result, turn);
      }
    }
  }
  return results;
}

/** The figures of one path and half of a set's conversation results. */
export interface ConverseTally {
  followUps: number;
  followHits: number;
  writtenHits: number;
  bareHits: number;
  /** Follow-ups whose conversation reply equals the bare reply word for word. */
  sameAsBare: number;
  selfContained: number;
  selfInConversation: number;
  selfFresh: number;
  social: number;
  fitting: number;
  first: number;
  firstHits: number;
}

export function converseTally(results: TurnResult[], path: ConversePath, half?: Half): ConverseTally {
  const mine = results.filter((result) => result.path === path && (!half || result.half === half));
  const of = (kind: TurnResult['kind']) => mine.filter((result) => result.kind === kind);
  const follow = of('follow-up');
  const self = of('self-contained');
  return {
    followUps: follow.length,
    followHits: follow.filter((result) => result.hit).length,
    writtenHits: follow.filter((result) => result.written?.hit).length,
    bareHits: follow.filter((result) => result.bare?.hit).length,
    sameAsBare: follow.filter((result) => result.bare?.same).length,
    selfContained: self.length,
    selfInConversation: self.filter((result) => result.hit).length,
    selfFresh: self.filter((result) => result.fresh?.hit).length,
    social: of('social').length,
    fitting: of('social').filter((result) => result.fits).length,
    first: of('first').length,
    firstHits: of('first').filter((result) => result.hit).length,
  };
}
