/** First bytes of every snapshot: "NGLM". */
export const SNAPSHOT_MAGIC = [0x4e, 0x47, 0x4c, 0x4d];
/**
 * Bumped whenever the layout changes (2: the counts of an order as columns, not pairs; 3: the
 * words as one text, a line each, decoded at once).
 */
export const SNAPSHOT_VERSION = 3;
/** The versions this code reads; others are refused. */
export const READABLE_SNAPSHOT_VERSIONS = [1, 2, 3];
/** From this version on, the words are one text, a line each (a word never holds a line break). */
export const WORDS_AS_LINES_VERSION = 3;
export const TOKENIZER_CODES = ['natural', 'whitespace'] as const;

/** Thrown when bytes are not a snapshot this code can read. */
export class SnapshotFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotFormatError';
  }
}
