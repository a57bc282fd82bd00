import type { LanguageModel } from '../language-model.js';
import type { LineScore } from '../types.js';
import { EOS, UNK, type Vocabulary } from '../words/vocabulary.js';
import type { WordIds } from '../words/word-index.js';
import { SENTENCE_SUMS } from './sentence-scoring.js';

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

/**
 * Scores every non-empty line and sums up as KenLM's `query` does. The text is lines, or a file's
 * UTF-8 bytes (as KenLM reads it): whitespace-tokenized models read each line's word ids straight
 * from the bytes or characters (`WordIndex`), with no token strings; every line is scored in one
 * `scoreSentence` call.
 */
export function evaluatePerplexity(
  model: LanguageModel,
  text: Iterable<string> | Uint8Array,
): PerplexityReport {
  const predictor = model.forward;
  const vocabulary = model.vocabulary;
  const index = model.tokenizer === 'whitespace' ? vocabulary.index() : null;
  const words: WordIds = { ids: new Int32Array(256), count: 0 };
  const sums = new Float64Array(2);
  let tokens = 0;
  let oov = 0;
  let count = 0;
  const scoreWords = () => {
    const length = words.count;
    if (length === 0) return;
    count++;
    const ids = words.ids;
    for (let i = 0; i < length; i++) if (ids[i] === UNK) oov++;
    predictor.scoreSentence(ids, length, sums);
    tokens += length + 1;
  };
  if (text instanceof Uint8Array && index) {
    for (let at = 0; at < text.length; ) {
      at = index.readLineBytes(text, at, words);
      scoreWords();
    }
  } else {
    const lines = text instanceof Uint8Array ? new TextDecoder().decode(text).split(LINE_BREAK) : text;
    for (const line of lines) {
      if (index) index.readWords(line, words);
      else lookUp(vocabulary, model.tokens(line), words);
      scoreWords();
    }
  }
  const log10Sum = sums[SENTENCE_SUMS.all];
  const oovSum = sums[SENTENCE_SUMS.unknown];
  return {
    perplexity: 10 ** (-log10Sum / tokens),
    perplexityExcludingOOV: 10 ** (-(log10Sum - oovSum) / (tokens - oov)),
    tokens,
    oov,
    lines: count,
    log10Sum,
  };
}

const LINE_BREAK = /\r?\n/;

/** Sets `into` to the vocabulary ids of `tokens`. */
function lookUp(vocabulary: Vocabulary, tokens: readonly string[], into: WordIds): void {
  if (into.ids.length < tokens.length) into.ids = new Int32Array(tokens.length * 2);
  for (let i = 0; i < tokens.length; i++) into.ids[i] = vocabulary.lookup(tokens[i]);
  into.count = tokens.length;
}
