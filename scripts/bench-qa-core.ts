import { type BenchClient, type BenchReply, benchClient, mentions } from './bench-chat.js';
import { baselineSections, SectionBm25 } from './bench-sections.js';
import { benchServices } from './bench-services.js';
import {
  type Half,
  offCorpusQuestions,
  type Question,
  type QuestionSet,
  setDocuments,
  setQuestions,
  trainSet,
} from './bench-sets.js';

/**
 * The measuring part of `npm run bench:qa`, shared with the floors test (tests/bench): trains a
 * set into a fresh in-process service, asks its questions of Variant A (expert, raw) and Variant
 * B (standard) and of the BM25 section baseline, and judges each reply; then the off-corpus
 * questions. No timing is judged here.
 */

/** An acceptable word among the first 60 words of the reply is a hit; among the first 15, a lead. */
export const HIT_WORDS = 60;
export const LEAD_WORDS = 15;

export type Level = 'answer' | 'nearest' | 'none';

/** A reply as judged against a question's acceptable words. */
export interface Judged {
  hit: boolean;
  lead: boolean;
  level: Level;
  /** The reply cites passages (see `citesSources`). */
  cited: boolean;
  /** At level `answer`, citing sources, yet no acceptable word in its first 60 words. */
  wrongCited: boolean;
  text: string;
}

export interface QuestionResult {
  q: string;
  half?: Half;
  a: Judged;
  b: Judged;
  base: { hit: boolean; lead: boolean; text: string };
}

export interface OffCorpusResult {
  q: string;
  half?: Half;
  /** Level `none`: an honest "I don't know". */
  honestA: boolean;
  honestB: boolean;
  textA: string;
  textB: string;
}

export interface SetResult {
  name: string;
  missing: string[];
  tokens: number;
  passages: number;
  sections: number;
  trainSeconds: number;
  questions: QuestionResult[];
  offCorpus: OffCorpusResult[];
}

/**
 * The reply's confidence level: the `confidence.level` of its JSON where the service gives one
 * (issue 27); until then read from the reply: "I don't know…" is `none`, "Closest match…" (or an earlier release's "Closest I found…")
 * is `nearest`, anything else `answer`.
 */
export function levelOf(reply: BenchReply): Level {
  if (reply.confidence?.level) return reply.confidence.level;
  const text = reply.text.trim();
  if (/^I don't know\b/i.test(text)) return 'none';
  if (/^(?:The )?(?:closest|nearest) (?:I (?:found|have)|match)\b/i.test(text)) return 'nearest';
  return 'answer';
}

/**
 * Whether a reply cites passages: its `sources` where the JSON has them (Variant A today); a
 * reply without the field (Variant B's JSON today) counts as cited when it is not a don't-know,
 * as every such reply on a trained document is built from its passages.
 */
export function citesSources(reply: BenchReply): boolean {
  if (reply.sources !== undefined) return reply.sources > 0;
  return levelOf(reply) !== 'none';
}

/** Whether a reply holds an acceptable answer in its first `words` words: a don't-know reply never does, though a question it offers may name the answer. */
export function replyMentions(reply: BenchReply, acceptable: readonly string[], words: number): boolean {
  return levelOf(reply) !== 'none' && mentions(reply.text, acceptable, words);
}

export function judge(reply: BenchReply, acceptable: readonly string[]): Judged {
  const level = levelOf(reply);
  const hit = replyMentions(reply, acceptable, HIT_WORDS);
  const cited = citesSources(reply);
  return {
    hit,
    lead: replyMentions(reply, acceptable, LEAD_WORDS),
    level,
    cited,
    wrongCited: level === 'answer' && cited && !hit,
    text: reply.text,
  };
}

export interface RunOptions {
  corpora: string;
  /** Ask only the questions (and off-corpus questions) of this half; all when absent. */
  half?: Half;
  /** Called after each question, for a running report. */
  onQuestion?: (result: QuestionResult) => void;
  onOffCorpus?: (result: OffCorpusResult) => void;
  /** Leave the off-corpus questions out. */
  skipOffCorpus?: boolean;
}

/** Trains `set` into a fresh service and asks its questions; the client is returned for more. */
export async function runSet(
  set: QuestionSet,
  options: RunOptions,
): Promise<{ result: SetResult; client: BenchClient; questions: Question[] }> {
  const services = await benchServices();
  const client = benchClient(services);
  const started = performance.now();
  const { documents, missing } = await setDocuments(set, options.corpora);
  await trainSet(client, documents);
  const sections = documents.flatMap((document) => baselineSections(document.text, document.format));
  const { model, passages } = await services.model.knowledge();
  const trainSeconds = (performance.now() - started) / 1000;
  const baseline = new SectionBm25(sections);
  // A set without halves (the shared samples, for development) counts as tuning data.
  const inHalf = (question: Question) => !options.half || (question.half ?? 'tuning') === options.half;

  const questions = setQuestions(set, options.corpora).filter(inHalf);
  const results: QuestionResult[] = [];
  for (const [i, question] of questions.entries()) {
    const acceptable = question.a ?? [];
    const replyA = await client.askA(question.q, { sessionId: `qa-${i}`, modelMode: 'expert', raw: true });
    const replyB = await client.askB(question.q);
    const top = baseline.top(question.q);
    const result: QuestionResult = {
      q: question.q,
      ...(question.half ? { half: question.half } : {}),
      a: judge(replyA, acceptable),
      b: judge(replyB, acceptable),
      base: {
        hit: mentions(top, acceptable, HIT_WORDS),
        lead: mentions(top, acceptable, LEAD_WORDS),
        text: top,
      },
    };
    results.push(result);
    options.onQuestion?.(result);
  }

  const offCorpus: OffCorpusResult[] = [];
  if (set.offcorpus && !options.skipOffCorpus) {
    for (const [i, question] of offCorpusQuestions(set, options.corpora).filter(inHalf).entries()) {
      const replyA = await client.askA(question.q, { sessionId: `off-${i}`, modelMode: 'expert', raw: true });
      const replyB = await client.askB(question.q);
      const result: OffCorpusResult = {
        q: question.q,
        ...(question.half ? { half: question.half } : {}),
        honestA: levelOf(replyA) === 'none',
        honestB: levelOf(replyB) === 'none',
        textA: replyA.text,
        textB: replyB.text,
      };
      offCorpus.push(result);
      options.onOffCorpus?.(result);
    }
  }

  return {
    result: {
      name: set.name,
      missing,
      tokens: model.tokenCount,
      passages: passages.size,
      sections: sections.length,
      trainSeconds,
      questions: results,
      offCorpus,
    },
    client,
    questions,
  };
}

/** The counts of a set's results, of one half or all. */
export interface Tally {
  asked: number;
  aHit: number;
  aLead: number;
  bHit: number;
  bLead: number;
  baseHit: number;
  baseLead: number;
  aNearest: number;
  bNearest: number;
  aWrongCited: number;
  bWrongCited: number;
  offAsked: number;
  aHonest: number;
  bHonest: number;
}

export function tally(result: SetResult, half?: Half): Tally {
  const questions = result.questions.filter((question) => !half || (question.half ?? 'tuning') === half);
  const off = result.offCorpus.filter((question) => !half || (question.half ?? 'tuning') === half);
  const count = (pick: (question: QuestionResult) => boolean) => questions.filter(pick).length;
  return {
    asked: questions.length,
    aHit: count((question) => question.a.hit),
    aLead: count((question) => question.a.lead),
    bHit: count((question) => question.b.hit),
    bLead: count((question) => question.b.lead),
    baseHit: count((question) => question.base.hit),
    baseLead: count((question) => question.base.lead),
    aNearest: count((question) => question.a.level === 'nearest'),
    bNearest: count((question) => question.b.level === 'nearest'),
    aWrongCited: count((question) => question.a.wrongCited),
    bWrongCited: count((question) => question.b.wrongCited),
    offAsked: off.length,
    aHonest: off.filter((question) => question.honestA).length,
    bHonest: off.filter((question) => question.honestB).length,
  };
}

/** The halves a set's results hold: tuning and held out where its questions have them, else all. */
export function halvesOf(result: SetResult): (Half | undefined)[] {
  return result.questions.some((question) => question.half) ? ['tuning', 'heldout'] : [undefined];
}
