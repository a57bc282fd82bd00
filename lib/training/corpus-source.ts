import { rootKey, type Store, type StoreBatch } from '../store/index.js';
import { trainingKeys } from './keys.js';
import type { SnapshotTag } from './snapshot.js';

/** Where the corpus stands: how many chunks, and which reset epoch. */
export interface CorpusPosition {
  chunks: number;
  epoch: string;
  /** A preview over production's corpus: production's part, which comes first (chunks 0 .. base.chunks - 1). */
  base?: { chunks: number; epoch: string };
}

/** Chunk count, snapshot coverage and totals of a corpus, for admin statistics. */
export interface CorpusStats {
  chunks: number;
  snapshotChunks: number;
  tokens: number;
  characters: number;
}

/**
 * Where the model keeper reads its corpus: the store's own training chunks, or (a preview) production's
 * chunks and snapshot, read-only, with the preview's own chunks after them. Writes (training, reset,
 * the starter text) always go to the keeper's own store.
 */
export interface CorpusSource {
  /** Adds the reads of the position to a batch (its results start where these reads were queued). */
  readPosition(batch: StoreBatch): void;
  /** The position from the results of `readPosition`, in order. */
  positionOf(results: unknown[]): CorpusPosition;
  /** Chunks `from` .. `last` (inclusive) of the corpus at `position`. */
  chunks(position: CorpusPosition, from: number, last: number): Promise<string[]>;
  /** The stored snapshot a cold instance may start from. */
  snapshot(): Promise<Uint8Array | null>;
  /** How many chunks the stored snapshot covers, as the store says (where the replay after it starts). */
  snapshotCovers(): Promise<number>;
  /** The dialogue texts in training order, of the store whose snapshot `snapshot` reads. */
  snapshotDialogue(): Promise<string[]>;
  /** Whether a snapshot with this tag belongs to the corpus at `position`. */
  snapshotFits(tag: SnapshotTag, position: CorpusPosition): boolean;
  /** Whether this instance writes snapshots (into its own store); never over production's corpus. */
  readonly writesSnapshots: boolean;
  /**
   * Exact vocabulary size in one read; undefined when only the model knows it (a layered corpus,
   * or a store where a document was forgotten: the set of words ever trained only grows).
   */
  vocabSize(): Promise<number | undefined> | undefined;
  /** Every chunk, in corpus order. */
  allChunks(): Promise<string[]>;
  stats(): Promise<CorpusStats>;
}

/** The corpus of the store itself (production, local, a preview with PREVIEW_CORPUS=own). */
export function ownCorpus(store: Store): CorpusSource {
  return {
    readPosition(batch) {
      batch.llen(trainingKeys.chunks).get(trainingKeys.epoch);
    },
    positionOf: (results) => ({ chunks: Number(results[0] ?? 0), epoch: String(results[1] ?? '0') }),
    chunks: (_position, from, last) => store.lrange(trainingKeys.chunks, from, last),
    snapshot: () => store.getBlob(trainingKeys.snapshot),
    snapshotCovers: async () => Number((await store.get(trainingKeys.snapshotChunks)) ?? 0),
    snapshotDialogue: () => store.lrange(trainingKeys.dialogue, 0, -1),
    snapshotFits: (tag, position) => tag.epoch === position.epoch && tag.chunks <= position.chunks,
    writesSnapshots: true,
    async vocabSize() {
      const [size, totals, chunks, epoch, measured] = await store
        .batch()
        .scard(trainingKeys.vocabulary)
        .hgetall(trainingKeys.stats)
        .llen(trainingKeys.chunks)
        .get(trainingKeys.epoch)
        .get(trainingKeys.vocabularyAt)
        .exec();
      if (Number((totals as Record<string, string>).forgets ?? 0) === 0) return Number(size);
      // After a forget the set of words ever trained is too large; the size an instance measured
      // at exactly this position (nothing trained since) is exact.
      return measuredVocabulary(measured as string | null, Number(chunks), String(epoch ?? '0'));
    },
    allChunks: () => store.lrange(trainingKeys.chunks, 0, -1),
    stats: () => corpusStats(store, (key) => key),
  };
}

/**
 * A preview's corpus over production's: production's chunks first (read through `rootKey`, in the
 * same round trips as the preview's own keys, never written), then the preview's own. Production's
 * snapshot starts a cold instance. The epoch names both epochs and, once the preview has chunks of
 * its own, production's count: when production trains after that, an instance rebuilds (production's
 * snapshot, its tail, the preview's chunks) instead of numbering chunks two ways.
 */
export function layeredCorpus(store: Store): CorpusSource {
  const base = (key: string) => rootKey(key);
  const own = ownCorpus(store);
  return {
    readPosition(batch) {
      batch.llen(base(trainingKeys.chunks)).get(base(trainingKeys.epoch));
      own.readPosition(batch);
    },
    positionOf(results) {
      const baseChunks = Number(results[0] ?? 0);
      const baseEpoch = String(results[1] ?? '0');
      const mine = own.positionOf(results.slice(2));
      const after = mine.chunks > 0 ? `/after:${baseChunks}` : '';
      return {
        chunks: baseChunks + mine.chunks,
        epoch: `production:${baseEpoch}/own:${mine.epoch}${after}`,
        base: { chunks: baseChunks, epoch: baseEpoch },
      };
    },
    async chunks(position, from, last) {
      const split = position.base?.chunks ?? 0;
      const [fromBase, fromOwn] = await Promise.all([
        from < split ? store.lrange(base(trainingKeys.chunks), from, Math.min(last, split - 1)) : [],
        last >= split ? store.lrange(trainingKeys.chunks, Math.max(0, from - split), last - split) : [],
      ]);
      return [...fromBase, ...fromOwn];
    },
    snapshot: () => store.getBlob(base(trainingKeys.snapshot)),
    snapshotCovers: async () => Number((await store.get(base(trainingKeys.snapshotChunks))) ?? 0),
    snapshotDialogue: () => store.lrange(base(trainingKeys.dialogue), 0, -1),
    snapshotFits: (tag, position) =>
      position.base !== undefined && tag.epoch === position.base.epoch && tag.chunks <= position.base.chunks,
    writesSnapshots: false,
    vocabSize: () => undefined,
    async allChunks() {
      const [fromBase, fromOwn] = await Promise.all([
        store.lrange(base(trainingKeys.chunks), 0, -1),
        own.allChunks(),
      ]);
      return [...fromBase, ...fromOwn];
    },
    async stats() {
      const [fromBase, fromOwn] = await Promise.all([corpusStats(store, base), own.stats()]);
      return {
        chunks: fromBase.chunks + fromOwn.chunks,
        snapshotChunks: fromBase.snapshotChunks,
        tokens: fromBase.tokens + fromOwn.tokens,
        characters: fromBase.characters + fromOwn.characters,
      };
    },
  };
}

async function corpusStats(store: Store, key: (name: string) => string): Promise<CorpusStats> {
  const [chunks, covered, totals] = await store
    .batch()
    .llen(key(trainingKeys.chunks))
    .get(key(trainingKeys.snapshotChunks))
    .hgetall(key(trainingKeys.stats))
    .exec();
  const hash = totals as Record<string, string>;
  return {
    chunks: Number(chunks),
    snapshotChunks: Number(covered ?? 0),
    tokens: Number(hash.tokens ?? 0),
    characters: Number(hash.characters ?? 0),
  };
}

/** The value of `trainingKeys.vocabularyAt`: where an instance measured its vocabulary, and the size. */
export function encodeMeasuredVocabulary(chunks: number, epoch: string, size: number): string {
  return JSON.stringify({ chunks, epoch, size });
}

function measuredVocabulary(raw: string | null, chunks: number, epoch: string): number | undefined {
  if (!raw) return undefined;
  try {
    const at = JSON.parse(raw) as { chunks?: unknown; epoch?: unknown; size?: unknown };
    return at.chunks === chunks && at.epoch === epoch && Number.isInteger(at.size)
      ? (at.size as number)
      : undefined;
  } catch {
    return undefined;
  }
}
