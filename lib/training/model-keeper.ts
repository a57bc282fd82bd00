import {
  type DialoguePair,
  type DocumentRecord,
  decodeChunk,
  decodeDocumentRecord,
  encodeChunk,
  encodeDocumentRecord,
  encodeForget,
  forgottenIdOf,
  plainTextOf,
  readDialogue,
  readDocument,
  redirectTarget,
  type StoredDocument,
} from '../documents/index.js';
import { HttpError } from '../http/index.js';
import { createModel, type LanguageModel, type NgramModel } from '../lm/index.js';
import { logError, logInfo } from '../log/index.js';
import type { Knowledge } from '../pipeline/index.js';
import { PassageIndex } from '../retrieval/index.js';
import type { Store, StoreBatch } from '../store/index.js';
import { corpusFull } from './corpus-ceiling.js';
import {
  type CorpusPosition,
  type CorpusSource,
  encodeMeasuredVocabulary,
  ownCorpus,
} from './corpus-source.js';
import { DocumentLedger } from './document-ledger.js';
import { sha256Hex } from './hash.js';
import { trainingKeys } from './keys.js';
import { decodeSnapshot } from './snapshot.js';
import { createSnapshotSchedule } from './snapshot-schedule.js';

export type { CorpusPosition } from './corpus-source.js';

/** The file name the starter text is cited under. */
const STARTER_NAME = 'the guide to this service';
/** The document id of the starter text: it leaves when the first document of the user's own is trained. */
export const STARTER_DOCUMENT_ID = 'starter-guide';
/** Field of the corpus totals: 1 while the starter guide is in the corpus. */
const STARTER_FIELD = 'starterGuide';

/** Default of `snapshotBytes`: a cold start replays at most about this much text. */
export const SNAPSHOT_BYTES = 2_000_000;
/** Default of `settleAfterMs`. */
const SETTLE_AFTER_MS = 1_000;
/** How long after another instance claimed the starter text a request waits for its chunk. */
const STARTER_WAIT_MS = 10_000;
/** How often such a request looks for the chunk. */
const STARTER_POLL_MS = 100;
/** How long the marker of a starter guide refresh keeps other instances from doing the same. */
const STARTER_REFRESH_SECONDS = 300;

/** Chunks read per request while catching up (at most 8 MB of text at the 1 MB train cap). */
const TAIL_PAGE_CHUNKS = 8;

/** Chunks `from`, `from + 1`, ... of the corpus, read ahead of the replay. */
interface TailPage {
  from: number;
  texts: string[];
}

export interface ModelKeeperOptions {
  order: number;
  /** Write a snapshot once this many chunks are past the last one. */
  snapshotEvery: number;
  /** ... or once the text of the chunks past the last one passes this many bytes (default 2 MB). */
  snapshotBytes?: number;
  /** A train that would take the corpus past this many bytes of text is refused (413); default none. */
  maxCorpusBytes?: number;
  /** A fixed model (an ARPA file) served instead of the trained one; training is then refused. */
  fixedModel?: LanguageModel;
  /** Trained once into an empty store, so a fresh install has something to answer from. */
  starterText?: string;
  /**
   * Quiet time after the last training or catching up before the model is settled
   * (`NgramModel.settle`: waiting n-grams merged) and an instance that trained writes a snapshot
   * of the rest of its tail, default 1 s.
   */
  settleAfterMs?: number;
  /**
   * Where the corpus is read: the store's own (the default), or a preview's layered over
   * production's (`layeredCorpus`). Training, reset and the starter text write to `store` either way.
   */
  corpus?: CorpusSource;
}

export interface TrainOptions {
  /** Adds operations to the train's transaction; `tokens` is what the text teaches. */
  also?: (batch: StoreBatch, learned: { tokens: number }) => void;
  /**
   * The document's entry in the document table (the keeper adds its passages and totals), written
   * in the same transaction as its chunk; the document needs a `documentId`.
   */
  record?: Omit<DocumentRecord, 'passages' | 'totals'>;
  /** Documents forgotten in the same transaction, before the new text (a replace; the starter guide). */
  forget?: readonly DocumentRecord[];
}

export interface TrainResult {
  tokens: number;
  vocabSize: number;
  chunk: number;
  /** The table entry written, when the train had a `record`. */
  record?: DocumentRecord;
}

/**
 * The model of this instance, kept in step with the training corpus in the store. The corpus is
 * the source of truth: a list of chunks. The instance applies only chunks it has not seen; a cold
 * instance starts from the latest snapshot and replays the tail.
 */
export interface ModelKeeper {
  /** Adds the reads `position` needs to a batch the caller sends anyway (one round trip saved). */
  readPosition(batch: StoreBatch): void;
  /** Turns the results of `readPosition` (two values) into a position. */
  positionOf(results: unknown[]): CorpusPosition;
  /** The model, up to date with the store (reads the position itself when not given). */
  current(position?: CorpusPosition): Promise<LanguageModel>;
  /** The model as it is in memory, without asking the store (for when the store is down). */
  cached(): LanguageModel;
  /** The model and the passage index of the same text, up to date with the store. */
  knowledge(position?: CorpusPosition): Promise<Knowledge>;
  /** Model and passages as they are in memory, without asking the store. */
  cachedKnowledge(): Knowledge;
  /** The statement/answer pairs of the dialogue trained so far (as of the last sync). */
  dialogue(): readonly DialoguePair[];
  /**
   * Appends a training document (a plain string is `text`) as a chunk and returns what was
   * learned. All or nothing: the chunk, vocabulary and totals go in one transaction (MULTI/EXEC on
   * Redis, one SQLite transaction), and `also` may add writes of its own to it (an idempotency record).
   */
  train(document: string | StoredDocument, options?: TrainOptions): Promise<TrainResult>;
  /**
   * Forgets documents: one log entry each, their table entries and totals gone, in one
   * transaction; resolves once this instance's model and passages are those of the rest.
   */
  forget(records: readonly DocumentRecord[]): Promise<void>;
  /** The document table entry of `id`, as the store has it now. */
  document(id: string): Promise<DocumentRecord | undefined>;
  /** Every entry of the document table. */
  documents(): Promise<DocumentRecord[]>;
  /**
   * Whether the starter guide is in the corpus: `present`, `left` (the first document of the user's
   * own sent it away, or the owner deleted it; a reset brings it back) or `off` (STARTER_TEXT=off).
   */
  starterGuide(): Promise<'present' | 'left' | 'off'>;
  /** Exact vocabulary size (one cheap read until a document is forgotten; then the model's, caught up). */
  vocabSize(): Promise<number>;
  /** Deletes the corpus and the snapshot; every instance starts over. */
  reset(): Promise<void>;
  /** The whole training corpus, chunks separated by blank lines. */
  exportCorpus(): Promise<string>;
  /** Chunk count, snapshot coverage and totals, for admin statistics. */
  stats(): Promise<{ chunks: number; snapshotChunks: number; tokens: number; characters: number }>;
  /** Resolves once the work this instance has queued (catching up, a snapshot write) is done. */
  idle(): Promise<void>;
}

export function createModelKeeper(store: Store, options: ModelKeeperOptions): ModelKeeper {
  let model: NgramModel = createModel({ order: options.order });
  let passages = new PassageIndex();
  let dialogue: DialoguePair[] = [];
  /** Dialogue chunks in the log so far, forgotten ones included (entries of the dialogue list covered). */
  let dialogueChunks = 0;
  let ledger = new DocumentLedger();
  let applied = 0;
  /** The one seeding of the starter text that concurrent requests on an empty store all await. */
  let starterSeeding: Promise<boolean> | undefined;
  /** Whether this instance compared the starter guide in the store with the one it ships (refreshStarter). */
  let starterCompared = false;
  let epoch: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const source = options.corpus ?? ownCorpus(store);

  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  const snapshots = createSnapshotSchedule({
    store,
    writes: source.writesSnapshots,
    policy: { everyChunks: options.snapshotEvery, everyBytes: options.snapshotBytes ?? SNAPSHOT_BYTES },
    serialized,
    state: () =>
      epoch === undefined
        ? undefined
        : {
            tag: { epoch, chunks: applied, dialogueChunks, documents: ledger.state() },
            model,
            passages,
          },
  });

  /**
   * Once training and catching up have been quiet for `settleAfterMs`: settles the model
   * (`NgramModel.settle`), so a long-lived server replies from the sorted counts alone (sampling
   * about 20% faster on the KJV trained in 100 parts), and, on an instance that trained, writes a
   * snapshot of whatever tail is left (`atQuietTime`), so a cold start after a training session
   * replays nothing. In a serverless function the timer may never fire; nothing depends on it.
   */
  function settleLater(): void {
    clearTimeout(settleTimer);
    settleTimer = setTimeout(() => {
      void serialized(async () => {
        model.settle();
      }).then(() => snapshots.atQuietTime());
    }, options.settleAfterMs ?? SETTLE_AFTER_MS);
    settleTimer.unref?.();
  }

  /** One sync at a time per instance, so no chunk is applied twice. */
  function serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task, task);
    queue = run.catch(() => {});
    return run;
  }

  function positionOf(results: unknown[]): CorpusPosition {
    return source.positionOf(results);
  }

  async function readPosition(): Promise<CorpusPosition> {
    const batch = store.batch();
    keeper.readPosition(batch);
    return positionOf(await batch.exec());
  }

  async function catchUp(position: CorpusPosition): Promise<void> {
    // Fewer chunks than applied: the corpus was deleted under us (a preview cleaned up), as good as a reset.
    if (position.epoch !== epoch || position.chunks < applied) {
      model = createModel({ order: options.order });
      passages = new PassageIndex();
      dialogue = [];
      dialogueChunks = 0;
      ledger = new DocumentLedger();
      applied = 0;
      epoch = position.epoch;
      snapshots.restart(0);
    }
    let prefetched = applied === 0 && position.chunks > 0 ? await loadSnapshot(position) : undefined;
    /** A document was forgotten in this stretch: the model and passages are rebuilt at its end. */
    let rebuild = false;
    // Paged, so a long tail never becomes one oversized REST response.
    while (position.chunks > applied) {
      const last = Math.min(position.chunks, applied + TAIL_PAGE_CHUNKS) - 1;
      const texts =
        prefetched?.from === applied ? prefetched.texts : await source.chunks(position, applied, last);
      prefetched = undefined;
      if (texts.length === 0) break;
      for (const text of texts) {
        const forgotten = forgottenIdOf(text);
        if (forgotten !== undefined) rebuild = ledger.forget(forgotten) > 0 || rebuild;
        else recordChunk(applied + 1, text, !rebuild);
        snapshots.tail.applied(text);
        applied++;
      }
    }
    if (rebuild) {
      await rebuildFromLiveChunks(position);
      snapshots.rebuilt();
    }
    settleLater();
    snapshots.afterCatchUp();
  }

  /** Notes a chunk in the ledger (and the dialogue count) and, unless a rebuild follows, learns it. */
  function recordChunk(chunkNo: number, raw: string, learn: boolean): void {
    const document = decodeChunk(raw);
    const ordinal = document.format === 'dialogue' ? dialogueChunks++ : undefined;
    ledger.added(chunkNo, document.documentId, ordinal);
    if (learn) applyChunk(chunkNo, document);
  }

  /** Reads a chunk by its format into the model, and into the passages or the dialogue. */
  function applyChunk(chunkNo: number, document: StoredDocument): void {
    const parsed = readDocument(document);
    const plain = plainTextOf(parsed);
    model.addText(plain);
    if (document.format === 'dialogue') dialogue.push(...readDialogue(document.text));
    else
      passages.addDocument(chunkNo, parsed, {
        ...(document.documentId ? { documentId: document.documentId } : {}),
        ...(document.url ? { url: document.url } : {}),
      });
  }

  /**
   * Forgetting is exact: the model and the passages become those of the live chunks alone, learned
   * in log order, which is what a fresh store trained on what is left holds (the same counts, the
   * same word ids, the same passages). Requests wait for it (they catch up through the same queue),
   * so text that was forgotten is never served meanwhile.
   */
  async function rebuildFromLiveChunks(position: CorpusPosition): Promise<void> {
    const started = performance.now();
    model = createModel({ order: options.order });
    passages = new PassageIndex();
    dialogue = [];
    try {
      for (let from = 0; from < applied; from += TAIL_PAGE_CHUNKS) {
        const last = Math.min(applied, from + TAIL_PAGE_CHUNKS) - 1;
        const texts = await source.chunks(position, from, last);
        texts.forEach((raw, offset) => {
          const chunkNo = from + offset + 1;
          if (ledger.isDead(chunkNo) || forgottenIdOf(raw) !== undefined) return;
          applyChunk(chunkNo, decodeChunk(raw));
        });
      }
    } catch (error) {
      // Half rebuilt: the next request starts over from the snapshot and the log.
      epoch = undefined;
      throw error;
    }
    logInfo('model_rebuilt_after_forget', { chunks: applied, ms: Math.round(performance.now() - started) });
  }

  /**
   * Loads the snapshot and, in the same round trips, the first page of the chunks after the one
   * the store says it covers, which is where the replay starts when the snapshot is usable.
   */
  async function loadSnapshot(position: CorpusPosition): Promise<TailPage | undefined> {
    const [bytes, page, dialogueTexts] = await Promise.all([
      source.snapshot(),
      firstTailPage(position),
      source.snapshotDialogue(),
    ]);
    if (!bytes) return page;
    const snapshot = decodeSnapshot(bytes, { chunksStored: position.chunks });
    if (!snapshot) {
      logError(
        'snapshot_unreadable',
        new Error('the stored model snapshot could not be read; replaying the corpus'),
      );
      return page;
    }
    if (!source.snapshotFits(snapshot.tag, position)) return page;
    if (snapshot.model.order !== options.order || !snapshot.passages) return page;
    const covered = snapshot.tag.dialogueChunks ?? 0;
    if (covered > dialogueTexts.length) return page;
    model = snapshot.model;
    passages = snapshot.passages;
    applied = snapshot.tag.chunks;
    ledger = DocumentLedger.from(snapshot.tag.documents);
    dialogue = dialogueTexts
      .slice(0, covered)
      .flatMap((text, ordinal) => (ledger.isDeadDialogue(ordinal) ? [] : readDialogue(text)));
    dialogueChunks = covered;
    snapshots.restart(applied);
    return page;
  }

  async function firstTailPage(position: CorpusPosition): Promise<TailPage | undefined> {
    const from = await source.snapshotCovers();
    if (!Number.isInteger(from) || from < 0 || from >= position.chunks) return undefined;
    const last = Math.min(position.chunks, from + TAIL_PAGE_CHUNKS) - 1;
    return { from, texts: await source.chunks(position, from, last) };
  }

  /** Bytes of text in the corpus (stores from before the byte total count their characters). */
  async function corpusBytes(): Promise<number> {
    const [totals, stats] = await Promise.all([store.hgetall(trainingKeys.stats), source.stats()]);
    return Math.max(Number(totals.bytes ?? 0), stats.characters);
  }

  /**
   * Trains the starter text into an empty corpus, once per store (a marker key holding the time
   * it was claimed says so). An instance that finds the marker freshly set by another waits,
   * briefly, for that instance's chunk to land, so no first request answers from nothing.
   */
  async function seedStarter(): Promise<boolean> {
    try {
      if (await store.set(trainingKeys.starter, String(Date.now()), { ifAbsent: true })) {
        try {
          const result = await trainStarter();
          logInfo('starter_text_trained', { tokens: result.tokens });
        } catch (error) {
          // Not learned: the next request (here or on another instance) tries again.
          await store.del(trainingKeys.starter).catch(() => 0);
          throw error;
        }
        return true;
      }
      const claimed = Number(await store.get(trainingKeys.starter));
      while (Date.now() < claimed + STARTER_WAIT_MS) {
        if ((await readPosition()).chunks > 0) break;
        await new Promise((resolve) => setTimeout(resolve, STARTER_POLL_MS));
      }
      return true;
    } catch (error) {
      logError('starter_text_failed', error);
      return false;
    }
  }

  /** Trains the starter text as its document, in place of `replaced` (an older version) when given. */
  function trainStarter(replaced?: DocumentRecord): Promise<TrainResult> {
    const text = options.starterText!;
    return keeper.train(
      { format: 'text', name: STARTER_NAME, documentId: STARTER_DOCUMENT_ID, text },
      {
        record: {
          id: STARTER_DOCUMENT_ID,
          name: STARTER_NAME,
          format: 'text',
          bytes: Buffer.byteLength(text, 'utf8'),
          sha256: sha256Hex(text),
          trainedAt: new Date().toISOString(),
        },
        ...(replaced ? { forget: [replaced] } : {}),
      },
    );
  }

  /**
   * A store seeded by an earlier release keeps that release's starter guide, which may describe
   * what the service no longer does: while the guide is still in the corpus (no document of the
   * user's own sent it away) and differs from the one this release ships, it is replaced, once
   * (a marker per version, short-lived, so concurrent instances do not replace it twice). True
   * when this instance replaced it.
   */
  async function refreshStarter(): Promise<boolean> {
    const hash = sha256Hex(options.starterText!);
    const record = await keeper.document(STARTER_DOCUMENT_ID);
    if (!record || record.sha256 === hash) return false;
    const marker = `${trainingKeys.starter}:${hash}`;
    try {
      if (
        !(await store.set(marker, String(Date.now()), {
          ifAbsent: true,
          ttlSeconds: STARTER_REFRESH_SECONDS,
        }))
      )
        return false;
      try {
        const result = await trainStarter(record);
        logInfo('starter_text_refreshed', { tokens: result.tokens });
        return true;
      } catch (error) {
        await store.del(marker).catch(() => 0);
        throw error;
      }
    } catch (error) {
      // The older guide stays; the next instance to start tries again.
      logError('starter_text_refresh_failed', error);
      return false;
    }
  }

  async function upToDate(position?: CorpusPosition): Promise<void> {
    let where = position ?? (await readPosition());
    if (options.starterText && where.chunks === 0) {
      // Every request that finds the corpus empty (a new store, or one just reset) waits for the
      // same seeding, then looks again; the marker in the store makes it once per reset.
      starterSeeding ??= seedStarter().finally(() => {
        starterSeeding = undefined;
      });
      await starterSeeding;
      starterCompared = true;
      where = await readPosition();
    } else if (options.starterText && !options.corpus && !options.fixedModel && !starterCompared) {
      // Once per instance, on its own store (a preview reads production's corpus, not its own).
      starterCompared = true;
      if (await refreshStarter()) where = await readPosition();
    }
    if (where.chunks === applied && where.epoch === epoch) return;
    await serialized(() => catchUp(where));
  }

  /**
   * Once anything was forgotten, the vocabulary size at this position, for health and stats to read
   * in one round trip instead of catching a model up (trusted only while the corpus is still here).
   */
  async function noteVocabulary(position: CorpusPosition, forgot = false): Promise<void> {
    if (!source.writesSnapshots || (!forgot && !ledger.forgotAny)) return;
    if (position.chunks !== applied || position.epoch !== epoch) return;
    await store
      .set(
        trainingKeys.vocabularyAt,
        encodeMeasuredVocabulary(position.chunks, position.epoch, model.vocabSize),
      )
      .catch((error: unknown) => logError('vocabulary_size_not_noted', error));
  }

  /** Five writes a document: its forget entry, its table entry gone, its totals taken off the corpus's. */
  function queueForget(batch: StoreBatch, records: readonly DocumentRecord[]): number {
    for (const record of records) {
      batch
        .rpush(trainingKeys.chunks, encodeForget(record.id))
        .hdel(trainingKeys.documents, record.id)
        .hincrby(trainingKeys.stats, 'characters', -record.totals.characters)
        .hincrby(trainingKeys.stats, 'bytes', -record.totals.bytes)
        .hincrby(trainingKeys.stats, STARTER_FIELD, record.id === STARTER_DOCUMENT_ID ? -1 : 0);
    }
    if (records.length > 0) {
      const tokens = records.reduce((sum, record) => sum + record.totals.tokens, 0);
      batch
        .hincrby(trainingKeys.stats, 'tokens', -tokens)
        .hincrby(trainingKeys.stats, 'forgets', records.length);
    }
    return records.length === 0 ? 0 : records.length * 5 + 2;
  }

  const keeper: ModelKeeper = {
    readPosition(batch) {
      source.readPosition(batch);
    },
    positionOf,
    async current(position) {
      if (options.fixedModel) return options.fixedModel;
      await upToDate(position);
      return model;
    },
    cached() {
      return options.fixedModel ?? model;
    },
    async knowledge(position) {
      if (!options.fixedModel) await upToDate(position);
      return keeper.cachedKnowledge();
    },
    cachedKnowledge() {
      return { model: options.fixedModel ?? model, passages, dialogue };
    },
    dialogue() {
      return dialogue;
    },
    async train(input, trainOptions = {}) {
      const document: StoredDocument = typeof input === 'string' ? { format: 'text', text: input } : input;
      const text = encodeChunk(document);
      if (options.fixedModel) {
        throw new HttpError(
          'conflict',
          'This server serves a fixed ARPA model (LM_ARPA_PATH is set), so it cannot be trained.',
        );
      }
      const parsed = readDocument(document);
      const tokens = model.tokens(plainTextOf(parsed));
      if (tokens.length === 0) {
        const target = document.format === 'html' ? redirectTarget(document.text) : null;
        throw new HttpError(
          'validation_failed',
          target
            ? `text: the page only redirects to ${target}; train the page it points to instead`
            : 'text: has no words to learn from',
          { field: 'text' },
        );
      }
      await snapshots.idle();
      const bytes = Buffer.byteLength(text, 'utf8');
      const forget = trainOptions.forget ?? [];
      if (options.maxCorpusBytes !== undefined) {
        const freed = forget.reduce((sum, record) => sum + record.totals.bytes, 0);
        const corpus = (await corpusBytes()) - freed;
        if (corpus + bytes > options.maxCorpusBytes) throw corpusFull(corpus, bytes, options.maxCorpusBytes);
      }
      const batch = store.batch();
      // The old version's forgetting and the new text in one transaction: a crash leaves one or the other.
      const positionAt = queueForget(batch, forget) + 1;
      batch.rpush(trainingKeys.chunks, text);
      // Read after the push, in the same transaction: the position that includes this chunk.
      source.readPosition(batch);
      batch
        .sadd(trainingKeys.vocabulary, ...new Set(tokens))
        .hincrby(trainingKeys.stats, 'characters', document.text.length)
        .hincrby(trainingKeys.stats, 'bytes', bytes)
        .hincrby(trainingKeys.stats, 'tokens', tokens.length);
      if (document.format === 'dialogue') batch.rpush(trainingKeys.dialogue, document.text);
      let record: DocumentRecord | undefined;
      if (trainOptions.record) {
        record = {
          ...trainOptions.record,
          passages: document.format === 'dialogue' ? 0 : PassageIndex.passagesOf(parsed),
          totals: { characters: document.text.length, bytes, tokens: tokens.length },
        };
        batch.hset(trainingKeys.documents, { [record.id]: encodeDocumentRecord(record) });
        if (record.id === STARTER_DOCUMENT_ID) batch.hincrby(trainingKeys.stats, STARTER_FIELD, 1);
      }
      trainOptions.also?.(batch, { tokens: tokens.length });
      const position = source.positionOf((await batch.exec()).slice(positionAt));
      snapshots.trained(position.chunks);
      await serialized(() => catchUp(position));
      await noteVocabulary(position);
      return {
        tokens: tokens.length,
        vocabSize: model.vocabSize,
        chunk: position.chunks,
        ...(record ? { record } : {}),
      };
    },
    async forget(records) {
      if (records.length === 0) return;
      await snapshots.idle();
      const batch = store.batch();
      const positionAt = queueForget(batch, records);
      source.readPosition(batch);
      const position = source.positionOf((await batch.exec()).slice(positionAt));
      snapshots.trained(position.chunks);
      await serialized(() => catchUp(position));
      await noteVocabulary(position, true);
    },
    async document(id) {
      return decodeDocumentRecord((await store.hget(trainingKeys.documents, id)) ?? undefined);
    },
    async documents() {
      const table = await store.hgetall(trainingKeys.documents);
      return Object.values(table)
        .map((raw) => decodeDocumentRecord(raw))
        .filter((record): record is DocumentRecord => record !== undefined);
    },
    async starterGuide() {
      if (!options.starterText || options.fixedModel) return 'off';
      const [chunks, totals] = await store
        .batch()
        .llen(trainingKeys.chunks)
        .hgetall(trainingKeys.stats)
        .exec();
      // An empty corpus gets the guide at its first question.
      if (Number(chunks) === 0) return 'present';
      return Number((totals as Record<string, string>)[STARTER_FIELD] ?? 0) > 0 ? 'present' : 'left';
    },
    async vocabSize() {
      if (options.fixedModel) return options.fixedModel.vocabSize;
      return (await source.vocabSize()) ?? (await keeper.current()).vocabSize;
    },
    async reset() {
      await store
        .batch()
        .del(trainingKeys.chunks)
        .del(trainingKeys.dialogue)
        .del(trainingKeys.vocabulary)
        .del(trainingKeys.snapshotChunks)
        .del(trainingKeys.stats)
        .del(trainingKeys.documents)
        .del(trainingKeys.vocabularyAt)
        .del(trainingKeys.starter)
        .incr(trainingKeys.epoch)
        .exec();
      await store.delBlob(trainingKeys.snapshot);
    },
    async exportCorpus() {
      const texts = liveTexts(await source.allChunks());
      return texts.length ? `${texts.join('\n\n')}\n` : '';
    },
    stats: () => source.stats(),
    async idle() {
      await serialized(async () => {});
      await snapshots.idle();
    },
  };
  return keeper;
}

/** The texts of the chunks still live in a log, in order (forget entries and what they forgot left out). */
export function liveTexts(chunks: readonly string[]): string[] {
  const ledger = new DocumentLedger();
  chunks.forEach((raw, index) => {
    const forgotten = forgottenIdOf(raw);
    if (forgotten !== undefined) ledger.forget(forgotten);
    else ledger.added(index + 1, decodeChunk(raw).documentId);
  });
  const texts: string[] = [];
  chunks.forEach((raw, index) => {
    if (!ledger.isDead(index + 1) && forgottenIdOf(raw) === undefined) texts.push(decodeChunk(raw).text);
  });
  return texts;
}
