/**
 * Which chunks of the log teach which document, and which chunks are forgotten: what an instance
 * needs to rebuild its model and passages from the live chunks alone after a delete or a replace.
 * Kept per instance as the log is applied and carried in the snapshot's tag, so a cold instance
 * knows it without reading the whole log.
 */
export interface LedgerState {
  /** Live chunks (1-based) of each document id. */
  chunks: [id: string, chunks: number[]][];
  /** Chunks forgotten so far. */
  dead: number[];
  /** Live dialogue chunks and their place in the dialogue list (0-based). */
  dialogue: [chunk: number, ordinal: number][];
  /** Places in the dialogue list whose chunk is forgotten. */
  deadDialogue: number[];
}

export class DocumentLedger {
  private readonly chunksOf = new Map<string, number[]>();
  private readonly dead = new Set<number>();
  private readonly dialogueOrdinal = new Map<number, number>();
  private readonly deadDialogue = new Set<number>();

  /** Records chunk `chunk` as teaching `documentId` (undefined: text from before ids, never forgotten). */
  added(chunk: number, documentId: string | undefined, dialogueOrdinal?: number): void {
    if (dialogueOrdinal !== undefined) this.dialogueOrdinal.set(chunk, dialogueOrdinal);
    if (documentId === undefined) return;
    const list = this.chunksOf.get(documentId);
    if (list) list.push(chunk);
    else this.chunksOf.set(documentId, [chunk]);
  }

  /** Forgets every chunk of `documentId` so far; returns how many there were. */
  forget(documentId: string): number {
    const chunks = this.chunksOf.get(documentId) ?? [];
    for (const chunk of chunks) {
      this.dead.add(chunk);
      const ordinal = this.dialogueOrdinal.get(chunk);
      if (ordinal !== undefined) {
        this.deadDialogue.add(ordinal);
        this.dialogueOrdinal.delete(chunk);
      }
    }
    this.chunksOf.delete(documentId);
    return chunks.length;
  }

  isDead(chunk: number): boolean {
    return this.dead.has(chunk);
  }

  isDeadDialogue(ordinal: number): boolean {
    return this.deadDialogue.has(ordinal);
  }

  /** True once anything was forgotten (the model is then rebuilt, not only added to). */
  get forgotAny(): boolean {
    return this.dead.size > 0;
  }

  state(): LedgerState {
    return {
      chunks: [...this.chunksOf],
      dead: [...this.dead],
      dialogue: [...this.dialogueOrdinal],
      deadDialogue: [...this.deadDialogue],
    };
  }

  /** A ledger from a snapshot's tag; an absent or damaged one gives an empty ledger. */
  static from(state: unknown): DocumentLedger {
    const ledger = new DocumentLedger();
    if (!isLedgerState(state)) return ledger;
    for (const [id, chunks] of state.chunks) ledger.chunksOf.set(id, [...chunks]);
    for (const chunk of state.dead) ledger.dead.add(chunk);
    for (const [chunk, ordinal] of state.dialogue) ledger.dialogueOrdinal.set(chunk, ordinal);
    for (const ordinal of state.deadDialogue) ledger.deadDialogue.add(ordinal);
    return ledger;
  }
}

function isLedgerState(value: unknown): value is LedgerState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Partial<LedgerState>;
  const numbers = (list: unknown) => Array.isArray(list) && list.every(Number.isInteger);
  return (
    Array.isArray(state.chunks) &&
    state.chunks.every(
      (entry) => Array.isArray(entry) && typeof entry[0] === 'string' && numbers(entry[1]),
    ) &&
    numbers(state.dead) &&
    Array.isArray(state.dialogue) &&
    state.dialogue.every((entry) => numbers(entry)) &&
    numbers(state.deadDialogue)
  );
}
