import type { LanguageModel } from '../language-model.js';
import { foldCase, type TokenizerMode, tokenize } from '../words/tokenizer.js';
import { MARKER_COUNT, Vocabulary } from '../words/vocabulary.js';
import { ArpaPredictor } from './arpa-predictor.js';
import type { ArpaTables } from './arpa-tables.js';
import { writeArpa } from './arpa-writer.js';

/** Options for serving an ARPA file. */
export interface ArpaOptions {
  /** How incoming text is tokenized to match the file's tokens, default `natural`. */
  tokenizer?: TokenizerMode;
}

/** Thrown when ARPA text cannot be read; the message says where. */
export class ArpaFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArpaFormatError';
  }
}

/**
 * A model served from an ARPA file. It has a forward predictor only: an ARPA file holds
 * conditional probabilities, not counts, so no backward model can be derived and no training can
 * continue. Replies are grown forwards from the sentence start (see lib/reply).
 * Casing is not recorded in ARPA files; the lone pronoun "i" is written "I".
 */
export class ArpaModel implements LanguageModel {
  readonly backward = null;
  readonly tokenCount = 0;

  constructor(
    readonly forward: ArpaPredictor,
    readonly vocabulary: Vocabulary,
    readonly tokenizer: TokenizerMode,
  ) {}

  get order(): number {
    return this.forward.order;
  }

  get vocabSize(): number {
    return this.vocabulary.size - MARKER_COUNT;
  }

  tokens(text: string): string[] {
    const tokens = tokenize(text, this.tokenizer);
    return this.tokenizer === 'whitespace' ? tokens : tokens.map((token) => foldCase(token, this.tokenizer));
  }

  surfaceForm(id: number): string {
    const word = this.vocabulary.word(id);
    return word === 'i' ? 'I' : word;
  }

  toArpa(): string {
    const predictor = this.forward;
    const tables: ArpaTables = {
      order: predictor.order,
      levels: predictor.levels,
      logProb: predictor.logProb,
      logBackoff: predictor.logBackoff,
      present: () => true,
    };
    return writeArpa(tables, this.vocabulary);
  }
}

/** Reads an ARPA file (as written by KenLM, SRILM or `toArpa`) into a model that can be served. */
export function loadArpa(text: string, options: ArpaOptions = {}): ArpaModel {
  const lines = text.split(/\r?\n/);
  const sizes: number[] = [0];
  let i = lines.findIndex((line) => line.trim() === '\\data\\');
  if (i < 0) throw new ArpaFormatError('no \\data\\ section');
  for (i++; i < lines.length; i++) {
    const header = /^ngram\s+(\d+)\s*=\s*(\d+)/.exec(lines[i].trim());
    if (header) sizes[Number(header[1])] = Number(header[2]);
    else if (lines[i].trim() !== '') break;
  }
  const order = sizes.length - 1;
  if (order < 1) throw new ArpaFormatError('no ngram counts in the \\data\\ section');
  const vocabulary = new Vocabulary();
  const predictor = new ArpaPredictor(order, sizes);
  const ids: number[] = [];
  let k = 0;
  for (; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    if (line === '\\end\\') break;
    const section = /^\\(\d+)-grams:$/.exec(line);
    if (section) {
      k = Number(section[1]);
      if (k < 1 || k > order) throw new ArpaFormatError(`line ${i + 1}: unexpected section ${line}`);
      continue;
    }
    if (k === 0) throw new ArpaFormatError(`line ${i + 1}: n-gram outside a section`);
    const fields = line.split(/\s+/);
    if (fields.length < k + 1) throw new ArpaFormatError(`line ${i + 1}: expected ${k} words`);
    const logProb = Number(fields[0]);
    const logBackoff = fields.length > k + 1 ? Number(fields[k + 1]) : 0;
    ids.length = 0;
    for (let j = 1; j <= k; j++) ids.push(k === 1 ? vocabulary.intern(fields[j]) : vocabulary.id(fields[j]));
    let context = ids[0];
    for (let j = 2; j < k && context >= 0; j++) context = predictor.levels[j].find(context, ids[j - 1]);
    if (k > 1 && (context < 0 || context >= predictor.levels[k - 1].size)) {
      throw new ArpaFormatError(
        `line ${i + 1}: the context of "${fields.slice(1, k + 1).join(' ')}" is missing`,
      );
    }
    predictor.add(k, k === 1 ? 0 : context, ids[k - 1], logProb, logBackoff);
  }
  return new ArpaModel(predictor, vocabulary, options.tokenizer ?? 'natural');
}
