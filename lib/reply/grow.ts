import {
  type ContextState,
  createContextState,
  EOS,
  TokenDistribution,
  type TokenPredictor,
} from '../lm/index.js';
import type { RandomSource } from './random.js';

/** What growing candidates needs; the distributions are reused from one step to the next. */
export interface Grower {
  forward: TokenPredictor;
  backward: TokenPredictor | null;
  temperature: number;
  maxTokens: number;
  random: RandomSource;
  distribution: TokenDistribution;
}

export interface Candidate {
  ids: number[];
  /** Reached both the sentence start and `</s>` within `maxTokens`. */
  complete: boolean;
  /**
   * When the forward model walked the candidate from the sentence start (it reached it): per token,
   * its log10 p and the n-gram order matched, as `scoreCandidate` would compute them again.
   */
  forwardPass: ForwardPass | null;
}

/** A forward walk over a candidate from `<s>`: what `advance` returned, and `lastMatch` after it. */
export interface ForwardPass {
  logProbs: number[];
  matches: number[];
}

/** A grower over the model's predictors. */
export function createGrower(
  forward: TokenPredictor,
  backward: TokenPredictor | null,
  options: { temperature: number; maxTokens: number; random: RandomSource },
): Grower {
  return { forward, backward, ...options, distribution: new TokenDistribution() };
}

/**
 * Grows one candidate reply around `seed`: leftwards with the backward model until it predicts
 * the sentence start, then rightwards with the forward model (conditioned on everything to its
 * left) until `</s>`. Without a seed the reply grows from the sentence start. Without a backward
 * model (ARPA) the seed is placed at the sentence start and the reply grows forwards from it.
 */
export function growCandidate(grower: Grower, seed: number | null): Candidate {
  const { forward, backward, maxTokens } = grower;
  const ids: number[] = seed === null ? [] : [seed];
  let reachedStart = true;
  if (seed !== null && backward) {
    reachedStart = false;
    const state = createContextState(backward.order);
    backward.advance(state, seed);
    while (ids.length < maxTokens) {
      const word = next(grower, backward, state);
      if (word === EOS) {
        reachedStart = true;
        break;
      }
      ids.unshift(word);
      backward.advance(state, word);
    }
  }
  const state = reachedStart ? forward.startState() : createContextState(forward.order);
  const pass: ForwardPass = { logProbs: [], matches: [] };
  const walk = (id: number) => {
    pass.logProbs.push(forward.advance(state, id));
    pass.matches.push(forward.lastMatch);
  };
  for (const id of ids) walk(id);
  let ended = false;
  while (ids.length < maxTokens) {
    const word = next(grower, forward, state);
    if (word === EOS) {
      ended = true;
      break;
    }
    ids.push(word);
    walk(word);
  }
  return { ids, complete: reachedStart && ended, forwardPass: reachedStart ? pass : null };
}

function next(grower: Grower, predictor: TokenPredictor, state: ContextState): number {
  return predictor.sample(state, grower.temperature, grower.random, grower.distribution);
}
