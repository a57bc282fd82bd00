/** Store keys of the training corpus and the model built from it. */
export const trainingKeys = {
  /** List of training texts, one chunk per POST /api/train, in order. */
  chunks: 'lm:chunks',
  /** List of the dialogue chunks' texts, in training order (dialogue outlives snapshots through it). */
  dialogue: 'lm:dialogue',
  /** Set of the distinct tokens (case-folded) ever trained: its size is the vocabulary size. */
  vocabulary: 'lm:vocab',
  /**
   * JSON { chunks, epoch, size }: the vocabulary size an instance measured at that position (written
   * after a train or a forget once documents have been forgotten; trusted only at that very position).
   */
  vocabularyAt: 'lm:vocab:at',
  /** Blob: a snapshot of the counts, self-describing (epoch and chunks covered in its header). */
  snapshot: 'lm:snapshot',
  /** How many chunks the last written snapshot covers (a hint for when to write the next). */
  snapshotChunks: 'lm:snapshot:chunks',
  /** Bumped by a model reset, so every instance drops what it had. */
  epoch: 'lm:epoch',
  /** Set once the starter text was trained into this store (cleared by a reset, so it comes back). */
  starter: 'lm:starter',
  /** Hash: document id -> its entry in the document table (JSON `DocumentRecord`). */
  documents: 'lm:documents',
  /** Totals kept beside the corpus (tokens, characters, chunks; `forgets`: documents forgotten). */
  stats: 'lm:stats',
} as const;
