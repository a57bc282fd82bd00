import { EOS } from '../words/vocabulary.js';
import type { TokenDistribution } from './token-distribution.js';

const TAIL_DRAWS = 32;

/**
 * Draws a word from `distribution` sharpened by `temperature`: 0 picks the most probable word,
 * 1 samples the model's own distribution, in between samples p^(1/T) renormalised.
 * The candidates are weighed one by one; the rest of the vocabulary (the unigram tail) is drawn
 * from a cached cumulative table of the tempered unigrams, skipping candidates.
 */
export function sampleToken(
  distribution: TokenDistribution,
  temperature: number,
  random: () => number,
): number {
  if (!(temperature > 0)) return mostProbable(distribution);
  const inverse = temperature >= 1 ? 1 : 1 / temperature;
  const { candidates, extra, size, scale, unigrams } = distribution;
  const probs = unigrams.probs;
  const weights = distribution.weights;
  let candidateSum = 0;
  let candidateUnigrams = 0;
  for (let i = 0; i < size; i++) {
    const unigram = probs[candidates[i]];
    const p = Math.max(0, scale * (unigram + extra[i]));
    const weight = inverse === 1 ? p : p ** inverse;
    weights[i] = weight;
    candidateSum += weight;
    candidateUnigrams += inverse === 1 ? unigram : unigram ** inverse;
  }
  const tempered = unigrams.temperedBy(inverse);
  const tailMass =
    Math.max(0, tempered.total - candidateUnigrams) * (inverse === 1 ? scale : scale ** inverse);
  const total = candidateSum + tailMass;
  if (!(total > 0)) return EOS;
  let target = random() * total;
  if (target < candidateSum) {
    for (let i = 0; i < size; i++) {
      target -= weights[i];
      if (target < 0) return candidates[i];
    }
    return candidates[size - 1];
  }
  return drawFromTail(distribution, inverse, random);
}

function drawFromTail(distribution: TokenDistribution, inverse: number, random: () => number): number {
  for (let attempt = 0; attempt < TAIL_DRAWS; attempt++) {
    const word = distribution.unigrams.draw(inverse, random);
    if (distribution.indexOf(word) < 0) return word;
  }
  // The candidates hold nearly all the tail's mass: take the likeliest word outside them.
  for (const word of distribution.unigrams.byProbability()) {
    if (distribution.indexOf(word) < 0 && distribution.unigrams.probs[word] > 0) return word;
  }
  return EOS;
}

function mostProbable(distribution: TokenDistribution): number {
  const { candidates, extra, size, unigrams } = distribution;
  let best = EOS;
  let bestP = -1;
  for (let i = 0; i < size; i++) {
    const p = unigrams.probs[candidates[i]] + extra[i];
    if (p > bestP) {
      bestP = p;
      best = candidates[i];
    }
  }
  for (const word of unigrams.byProbability()) {
    if (distribution.indexOf(word) >= 0) continue;
    if (unigrams.probs[word] > bestP) best = word;
    break;
  }
  return best;
}
