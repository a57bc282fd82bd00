/** Id of the unknown word; every lookup of an unseen string answers this. */
export const UNK = 0;
/** Id of the sentence start marker: a context only, never predicted. */
export const BOS = 1;
/** Id of the sentence end marker: predicted after the last token of a line. */
export const EOS = 2;
/** How many ids the markers take before the first real word (KenLM numbers them the same way). */
export const MARKER_COUNT = 3;

import { WordIndex } from './word-index.js';

const MARKERS = ['<unk>', '<s>', '</s>'];

/**
 * Two-way map between token strings and dense integer ids, in first-seen order after the three
 * markers. Shared by the forward and backward models so an id means the same word in both.
 */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  private wordIndex: WordIndex | null = null;

  /**
   * The markers, then `words` in order. `ownWords`: the words are strings of their own already
   * (decoded from a snapshot, not cut from a text), so they are kept without a copy.
   */
  constructor(words: readonly string[] = [], ownWords = false) {
    for (const marker of MARKERS) this.intern(marker);
    for (const word of words) {
      if (!ownWords || this.ids.has(word)) this.intern(word);
      else {
        this.ids.set(word, this.words.length);
        this.words.push(word);
      }
    }
  }

  /** Number of ids in use, markers included. */
  get size(): number {
    return this.words.length;
  }

  /** The id of `word`, or `UNK` when it was never learned. */
  id(word: string): number {
    return this.ids.get(word) ?? UNK;
  }

  /** The id of a word of the text: `UNK` when it was never learned or is written like a marker. */
  lookup(word: string): number {
    const id = this.ids.get(word);
    return id === undefined || id < MARKER_COUNT ? UNK : id;
  }

  /** True when `word` is a learned word (markers excluded). */
  has(word: string): boolean {
    const id = this.ids.get(word);
    return id !== undefined && id >= MARKER_COUNT;
  }

  /** The id of `word`, adding it when new. */
  intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      const own = ownCopy(word);
      this.ids.set(own, id);
      this.words.push(own);
    }
    return id;
  }

  /** A `WordIndex` of the words so far (rebuilt after words were added). */
  index(): WordIndex {
    if (this.wordIndex?.size !== this.words.length)
      this.wordIndex = new WordIndex(this.words, UNK, MARKER_COUNT);
    return this.wordIndex;
  }

  /** The string of `id`. */
  word(id: number): string {
    return this.words[id] ?? '<unk>';
  }

  /** All words in id order, markers first. */
  list(): readonly string[] {
    return this.words;
  }

  /** True for the ids of `<unk>`, `<s>` and `</s>`. */
  static isMarker(word: string): boolean {
    return MARKERS.includes(word);
  }
}

/**
 * `word` as a string of its own. A token cut from a training text is a slice that keeps the whole
 * text alive (V8 slices strings of 13 characters or more); a vocabulary that kept such slices would
 * hold every chunk it ever saw a new long word in.
 */
export function ownCopy(word: string): string {
  return word.length < 13 ? word : Buffer.from(word, 'utf8').toString('utf8');
}
