import type { LanguageModel } from '../language-model.js';
import type { LineScore } from '../types.js';
import { EOS, UNK } from '../words/vocabulary.js';

/** Per-token log10 probabilities of one line under the forward model, `</s>` last. */
export function scoreLine(model: LanguageModel, text: string): LineScore {
  const tokens = model.tokens(text);
  const predictor = model.forward;
  const state = predictor.startState();
  const logProbs: number[] = [];
  const unknown: boolean[] = [];
  for (const token of tokens) {
    const id = model.vocabulary.lookup(token);
    logProbs.push(predictor.advance(state, id));
    unknown.push(id === UNK);
  }
  logProbs.push(predictor.advance(state, EOS));
  unknown.push(false);
  return { tokens: [...tokens, '</s>'], logProbs, unknown };
}

/** Perplexity of a text, in KenLM's conventions. */
export interface PerplexityReport {
  /** 10^(-Σ log10 p / tokens) over every token, one `</s>` per line and `<unk>`'s probability for unknown words. */
  perplexity: number;
  /** The same without the unknown words' own terms (the context still resets after them). */
  perplexityExcludingOOV: number;
  /** Tokens scored, one `</s>` per line included. */
  tokens: number;
  /** Unknown words among them. */
  oov: number;
  lines: number;
  log10Sum: number;
}

/** Scores every non-empty line of `lines` and sums up as KenLM's `query` does. */
export function evaluatePerplexity(model: LanguageModel, lines: Iterable<string>): PerplexityReport {
  const predictor = model.forward;
  const vocabulary = model.vocabulary;
  let log10Sum = 0;
  let oovSum = 0;
  let tokens = 0;
  let oov = 0;
  let count = 0;
  for (const line of lines) {
    const words = model.tokens(line);
    if (words.length === 0) continue;
    count++;
    const state = predictor.startState();
    for (let i = 0; i < words.length; i++) {
      const id = vocabulary.lookup(words[i]);
      const logProb = predictor.advance(state, id);
      log10Sum += logProb;
      if (id === UNK) {
        oov++;
        oovSum += logProb;
      }
    }
    log10Sum += predictor.advance(state, EOS);
    tokens += words.length + 1;
  }
  return {
    perplexity: 10 ** (-log10Sum / tokens),
    perplexityExcludingOOV: 10 ** (-(log10Sum - oovSum) / (tokens - oov)),
    tokens,
    oov,
    lines: count,
    log10Sum,
  };
}
