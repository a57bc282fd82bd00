import { waitUntil } from '@vercel/functions';
import type { NgramModel } from '../lm/index.js';
import { logError, logInfo } from '../log/index.js';
import type { PassageIndex } from '../retrieval/index.js';
import type { Store } from '../store/index.js';
import { trainingKeys } from './keys.js';
import { compressSnapshot, plainSnapshotSteps, type SnapshotTag } from './snapshot.js';
import { ReplayTail, type SnapshotPolicy, snapshotDue } from './snapshot-policy.js';

/** Pause between the end of a catch-up (a train's response on its way) and a snapshot write. */
const AFTER_RESPONSE_MS = 20;

/** What the keeper holds now, for a snapshot of it. */
export interface KeptState {
  /** What the snapshot covers (epoch, chunks, dialogue chunks). */
  tag: SnapshotTag;
  model: NgramModel;
  passages: PassageIndex;
}

export interface SnapshotScheduleOptions {
  store: Store;
  /** False for a corpus this instance only reads (a preview reading production's): never writes. */
  writes: boolean;
  policy: SnapshotPolicy;
  /** Runs `task` when no catching up is under way (the keeper's queue). */
  serialized<T>(task: () => Promise<T>): Promise<T>;
  /** The model and passages as they are; undefined before the keeper knows its epoch. */
  state(): KeptState | undefined;
}

/**
 * Writes a snapshot once the tail a cold instance would replay passes the policy's bound, in
 * chunks or in bytes of text, whichever comes first. The write starts after the response of the
 * request that made it due (on Vercel inside `waitUntil`, so the instance lives until it is
 * stored): the model's bytes are read on the event loop in steps (the longest is logged as
 * `blockMs`), the compression runs on libuv's thread pool, and the store write is asynchronous.
 * Once written, the model's counts wait encoded until something reads them. Any instance that catches up past the bound writes
 * it, so a snapshot a crashed writer never stored is written by the next instance instead. The
 * next train on this instance waits for a write under way (`idle`), so a cold start meanwhile
 * replays at most the bound and the part that passed it.
 */
export function createSnapshotSchedule(options: SnapshotScheduleOptions) {
  const { store, policy } = options;
  const tail = new ReplayTail();
  /** Chunks the latest snapshot this instance knows of covers. */
  let covered = 0;
  let pending: Promise<void> | undefined;
  /**
   * The last chunk this instance trained (a document or a forget entry), 0 for none. A position,
   * not a flag cleared by a write: a write may begin before the chunk trained last is applied.
   */
  let trainedThrough = 0;
  /** This instance forgot a document and rebuilt: a cold start from the stored snapshot would rebuild too. */
  let rebuiltHere = false;

  /** The tail is past the bound, or (at quiet time) anything this instance trained is in it. */
  function due(quiet: boolean): boolean {
    if (rebuiltHere) return true;
    const after = tail.after(covered);
    return quiet ? trainedThrough > covered && (after?.bytes ?? 0) > 0 : snapshotDue(after, policy);
  }

  /** Writes the snapshot when it is due; true when one was written. */
  async function writeIfDue(quiet = false): Promise<boolean> {
    const prepared = await options.serialized(async () => {
      const state = options.state();
      if (!state) return undefined;
      covered = Math.max(covered, Number((await store.get(trainingKeys.snapshotChunks)) ?? 0) || 0);
      if (!due(quiet)) return undefined;
      rebuiltHere = false;
      const replayBytes = tail.after(covered)?.bytes;
      const started = performance.now();
      // Step by step (words, each direction of the counts, passages), with requests served in
      // between; each direction is decoded (when it waits encoded), has what was learned since
      // counted in, is written, and goes back to waiting encoded as the bytes just written.
      const steps = plainSnapshotSteps(state.tag, state.model, state.passages, { encodeAfter: true });
      let blockMs = 0;
      let busyMs = 0;
      for (;;) {
        const stepStarted = performance.now();
        const step = steps.next();
        const stepMs = performance.now() - stepStarted;
        blockMs = Math.max(blockMs, stepMs);
        busyMs += stepMs;
        if (step.done)
          return { plain: step.value, chunks: state.tag.chunks, replayBytes, started, blockMs, busyMs };
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    if (!prepared) return false;
    const bytes = await compressSnapshot(prepared.plain);
    await store.setBlob(trainingKeys.snapshot, bytes);
    await store.set(trainingKeys.snapshotChunks, String(prepared.chunks));
    covered = Math.max(covered, prepared.chunks);
    logInfo('snapshot_written', {
      chunks: prepared.chunks,
      ...(quiet ? { quiet: true } : {}),
      replayBytesBefore: prepared.replayBytes,
      bytes: bytes.byteLength,
      plainBytes: prepared.plain.plainBytes,
      blockMs: Math.round(prepared.blockMs),
      busyMs: Math.round(prepared.busyMs),
      totalMs: Math.round(performance.now() - prepared.started),
    });
    return true;
  }

  /** Keeps `write` as the write under way until it settles; `then` runs after one that wrote. */
  function track(write: Promise<boolean>, then?: () => void): Promise<void> {
    pending = write.then(
      (wrote) => {
        pending = undefined;
        if (wrote) then?.();
      },
      (error) => {
        pending = undefined;
        logError('snapshot_write_failed', error);
      },
    );
    return pending;
  }

  /**
   * See `atQuietTime` below. A write under way at quiet time may have begun before the last chunk,
   * and quiet time comes once per training session: it looks again when that write is done.
   */
  function atQuietTime(): void {
    if (!options.writes) return;
    if (pending) void pending.then(atQuietTime);
    else if (due(true)) void track(writeIfDue(true));
  }

  function schedule(): void {
    if (!options.writes || pending || !due(false)) return;
    const write = new Promise((resolve) => setTimeout(resolve, AFTER_RESPONSE_MS)).then(() => writeIfDue());
    // Chunks applied during the write may have made the next one due already.
    waitUntil(track(write, schedule));
  }

  return {
    /** The bytes of the chunks applied since the last restart (the keeper records each). */
    tail,
    /** Starts over after chunk `chunks`: a loaded snapshot covers it (0: none, or a reset). */
    restart(chunks: number): void {
      tail.restart(chunks);
      covered = chunks;
    },
    /** Called after every catch-up: writes a snapshot after the response when one is due. */
    afterCatchUp: schedule,
    /** Called when this instance trains a chunk, with its position in the list. */
    trained(chunk: number): void {
      trainedThrough = Math.max(trainedThrough, chunk);
    },
    /**
     * Called after a rebuild (a forget entry applied): the instance that wrote the forget entry
     * writes a snapshot right after its response, not only at quiet time, since every cold start
     * from an older snapshot rebuilds the whole corpus.
     */
    rebuilt(): void {
      if (trainedThrough > covered) rebuiltHere = true;
    },
    /**
     * Called once training has gone quiet (no chunk for a while): an instance that trained writes
     * a snapshot of whatever tail is left, however small, so a cold start after a training session
     * replays nothing. A serving instance that only caught up never does (a write decodes the
     * whole model); in a serverless function the quiet time may never come, and the bound holds.
     */
    atQuietTime,
    /**
     * Resolves once no snapshot write is scheduled or under way: a train waits for it before it
     * adds a chunk, so however fast parts arrive the tail never grows far past the bound.
     */
    async idle(): Promise<void> {
      while (pending) await pending;
    },
  };
}
