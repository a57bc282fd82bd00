/** First bytes of every snapshot: "NGLM". */
export const SNAPSHOT_MAGIC = [0x4e, 0x47, 0x4c, 0x4d];
/** Bumped whenever the layout changes (2: the counts of an order as columns, not pairs). */
export const SNAPSHOT_VERSION = 2;
/** The versions this code reads; others are refused. */
export const READABLE_SNAPSHOT_VERSIONS = [1, 2];
export const TOKENIZER_CODES = ['natural', 'whitespace'] as const;

/** Thrown when bytes are not a snapshot this code can read. */
export class SnapshotFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotFormatError';
  }
}
