/** Store keys of the training corpus and the model built from it. */
export const trainingKeys = {
  /** List of training texts, one chunk per POST /api/train, in order. */
  chunks: 'lm:chunks',
  /** Set of the distinct tokens (case-folded) ever trained: its size is the vocabulary size. */
  vocabulary: 'lm:vocab',
  /** Blob: binary snapshot of the counts. */
  snapshot: 'lm:snapshot',
  /** How many chunks the snapshot covers. */
  snapshotChunks: 'lm:snapshot:chunks',
  /** Totals kept beside the corpus (tokens, characters). */
  stats: 'lm:stats',
} as const;
