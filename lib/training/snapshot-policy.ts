/** When a snapshot is due: whichever bound the replay tail passes first. */
export interface SnapshotPolicy {
  /** Chunks after the last snapshot that make the next one due. */
  everyChunks: number;
  /** Bytes of text (UTF-8) in the chunks after the last snapshot that make the next one due. */
  everyBytes: number;
}

/** What a cold instance would replay after the snapshot: its chunks and their bytes of text. */
export interface ReplayCost {
  chunks: number;
  bytes: number;
}

/** True when a snapshot is due for a tail costing `cost`; an unknown cost counts as due. */
export function snapshotDue(cost: ReplayCost | undefined, policy: SnapshotPolicy): boolean {
  if (cost === undefined) return true;
  if (cost.chunks <= 0) return false;
  return cost.chunks >= policy.everyChunks || cost.bytes >= policy.everyBytes;
}

/**
 * The bytes of every chunk an instance applied since it started counting (at a snapshot it
 * loaded, or at chunk 0), so that the cost of replaying from any later snapshot is known.
 */
export class ReplayTail {
  private from = 0;
  /** cumulative[i]: bytes of chunks from+1 .. from+i. */
  private cumulative: number[] = [0];

  /** Starts counting after chunk `chunks` (the one a loaded snapshot covers, or 0). */
  restart(chunks: number): void {
    this.from = chunks;
    this.cumulative = [0];
  }

  /** Records the next chunk applied. */
  applied(text: string): void {
    this.cumulative.push(this.cumulative.at(-1)! + Buffer.byteLength(text, 'utf8'));
  }

  /** Number of the last chunk recorded. */
  get last(): number {
    return this.from + this.cumulative.length - 1;
  }

  /** The cost of replaying the chunks after `covered` up to the last one applied (undefined: not known here). */
  after(covered: number): ReplayCost | undefined {
    if (covered < this.from) return undefined;
    if (covered >= this.last) return { chunks: 0, bytes: 0 };
    return {
      chunks: this.last - covered,
      bytes: this.cumulative.at(-1)! - this.cumulative[covered - this.from],
    };
  }
}
