import type { LanguageModel } from '../lm/index.js';
import { replyBudgets } from './budgets.js';
import { copiedRunLimit, scoreCandidate } from './candidate-score.js';
import { createGrower, growCandidate } from './grow.js';
import { type Keyword, selectKeywords } from './keywords.js';
import { renderReply } from './render.js';
import type { Reply, ReplyRequest } from './types.js';

/** What an untrained model answers. */
export const EMPTY_MODEL_REPLY = "I don't know enough yet: train me with POST /api/train";

const DEFAULT_TEMPERATURE = 0.8;
const DEFAULT_MAX_TOKENS = 40;

interface Ranked {
  ids: number[];
  seed: Keyword | null;
  complete: boolean;
  surprise: number;
  copiedRun: number;
  overlap: number;
  /** Mean log-probability per token at or above the fluency floor. */
  fluent: boolean;
}

/**
 * A reply in the MegaHAL tradition: keywords from the message, many candidates grown from a
 * keyword outwards (backward model to the left, forward model to the right) by sampling the
 * smoothed distribution at the requested temperature, and the most surprising candidate that
 * neither repeats the conversation nor copies a long run of the training text.
 * Never throws on an empty model or a message without known words.
 */
export function generateReply(model: LanguageModel, request: ReplyRequest): Reply {
  const now = request.now ?? (() => performance.now());
  const started = now();
  const { keywords, unknownWords } = selectKeywords(model, request.message, request.history ?? []);
  const reply = (fields: Partial<Reply> & Pick<Reply, 'text'>): Reply => ({
    keywords: keywords.map((keyword) => keyword.word),
    seed: null,
    candidates: 0,
    accepted: 0,
    score: 0,
    copiedRun: 0,
    elapsedMs: now() - started,
    unknownWords,
    fallback: null,
    ...fields,
  });
  if (model.vocabSize === 0) return reply({ text: EMPTY_MODEL_REPLY, fallback: 'empty-model' });

  const budget = request.budget ?? replyBudgets.instant;
  const random = request.random ?? Math.random;
  const grower = createGrower(model.forward, model.backward, {
    temperature: clamp(request.temperature ?? DEFAULT_TEMPERATURE, 0, 1),
    maxTokens: Math.max(1, Math.floor(request.maxTokens ?? DEFAULT_MAX_TOKENS)),
    random,
  });
  const keywordIds = new Set(keywords.map((keyword) => keyword.id));
  const seeds = keywords.filter((keyword) => keyword.seed);
  const conversation = new Set(
    [request.message, ...(request.history ?? [])].map((turn) => model.tokens(turn).join(' ')),
  );

  let best: Ranked | null = null;
  let bestRejected: Ranked | null = null;
  let tried = 0;
  let accepted = 0;
  do {
    const seed = pickSeed(seeds, random);
    const { ids, complete, forwardPass } = growCandidate(grower, seed?.id ?? null);
    tried++;
    if (ids.length === 0) continue;
    const words = ids.map((id) => model.vocabulary.word(id));
    if (conversation.has(words.join(' '))) continue;
    const score = scoreCandidate(model, ids, keywordIds, forwardPass);
    const ranked: Ranked = {
      ids,
      seed,
      complete,
      surprise: score.surprise,
      copiedRun: score.copiedRun,
      overlap: score.copiedRun / ids.length,
      fluent: score.fluency >= FLUENCY_FLOOR,
    };
    if (score.copiedRun > copiedRunLimit(ids.length)) {
      if (!bestRejected || ranked.overlap < bestRejected.overlap) bestRejected = ranked;
      continue;
    }
    accepted++;
    if (!best || better(ranked, best)) best = ranked;
  } while (tried < budget.candidates && now() - started < budget.timeMs);

  const chosen = best ?? bestRejected;
  if (!chosen) return reply({ text: EMPTY_MODEL_REPLY, candidates: tried, fallback: 'empty-model' });
  return reply({
    text: renderReply(model, chosen.ids),
    seed: chosen.seed?.word ?? null,
    candidates: tried,
    accepted,
    score: chosen.surprise,
    copiedRun: chosen.copiedRun,
    fallback: !best ? 'all-rejected' : seeds.length === 0 ? 'no-keywords' : null,
  });
}

/**
 * Least mean log10 probability per token for a candidate to count as fluent: it must read like the
 * text (about one token in 500 on average; the KJV's test text scores about -2.1 per token).
 */
const FLUENCY_FLOOR = -2.7;

/** Complete sentences first, then fluent ones (above the floor), then MegaHAL's higher surprise. */
function better(a: Ranked, b: Ranked): boolean {
  if (a.complete !== b.complete) return a.complete;
  if (a.fluent !== b.fluent) return a.fluent;
  return a.surprise > b.surprise;
}

function pickSeed(seeds: readonly Keyword[], random: () => number): Keyword | null {
  if (seeds.length === 0) return null;
  let total = 0;
  for (const seed of seeds) total += seed.weight;
  let target = random() * total;
  for (const seed of seeds) {
    target -= seed.weight;
    if (target < 0) return seed;
  }
  return seeds[seeds.length - 1];
}

function clamp(value: number, low: number, high: number): number {
  return Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : high;
}
