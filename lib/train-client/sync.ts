import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { deleteDocument, type ListedDocument, listDocuments } from './documents.js';
import { type SourceSelection, sourceUrlOf, type TrainSource } from './files.js';
import type { OwnerCredentials } from './owner.js';
import { type PreparedDocument, prepareSource } from './read/index.js';
import {
  type PartResult,
  type RetryLimits,
  type SendNotice,
  sendFile,
  sendPart,
  TrainPartError,
} from './send.js';

/** What happened to one file, or (dry run) what would. */
export type FileOutcome =
  | 'trained'
  | 'replaced'
  | 'unchanged'
  | 'skipped'
  | 'failed'
  | 'would-train'
  | 'would-replace'
  | 'would-send';

/** What a sync tells its caller as it goes. */
export type SyncEvent =
  | { type: 'file'; source: TrainSource; outcome: FileOutcome; detail?: string; notes?: string[] }
  | { type: 'part'; source: TrainSource; part: number; parts: number; bytes: number; result: PartResult }
  | { type: 'pruned' | 'would-prune'; id: string }
  | { type: 'prune-failed'; id: string; detail: string }
  | { type: 'notice'; source: TrainSource; notice: SendNotice };

export interface SyncSummary {
  trained: number;
  replaced: number;
  unchanged: number;
  pruned: number;
  skipped: number;
  failed: number;
  failures: { id: string; detail: string }[];
  tokens: number;
  vocabSize?: number;
}

export interface SyncOptions {
  /** The service's base URL (`http://localhost:3000/`) and its train endpoint. */
  base: string;
  trainUrl: string;
  selection: SourceSelection;
  owner?: OwnerCredentials;
  prune?: boolean;
  dryRun?: boolean;
  /** --source-url's template. */
  sourceUrl?: string;
  partBytes: number;
  onEvent?: (event: SyncEvent) => void;
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  retries?: Partial<RetryLimits>;
}

/** A problem that stops the whole run (the service refuses the owner, or cannot list). */
export class SyncStopped extends Error {}

/**
 * Brings the service's documents in line with the files: sends each file whose content the
 * service lacks (unchanged ones cost nothing), then, with `prune`, deletes the documents under a
 * folder's prefix whose files are gone. One bad file is counted and the run goes on.
 */
export async function syncDocuments(options: SyncOptions): Promise<SyncSummary> {
  const emit = options.onEvent ?? (() => {});
  const summary: SyncSummary = {
    trained: 0,
    replaced: 0,
    unchanged: 0,
    pruned: 0,
    skipped: 0,
    failed: 0,
    failures: [],
    tokens: 0,
  };
  if (options.prune && !options.owner) {
    throw new SyncStopped('--prune needs owner credentials to list the documents');
  }
  const listed = options.owner ? await listedById(options) : undefined;

  for (const source of options.selection.sources) {
    const outcome = await syncFile(source, listed, options, summary, emit);
    if (outcome === 'trained' || outcome === 'would-train' || outcome === 'would-send') summary.trained++;
    else if (outcome === 'replaced' || outcome === 'would-replace') summary.replaced++;
    else summary[outcome]++;
  }

  if (options.prune && listed) await prune(listed, options, summary, emit);
  return summary;
}

async function listedById(options: SyncOptions): Promise<Map<string, ListedDocument>> {
  try {
    const documents = await listDocuments({
      base: options.base,
      owner: options.owner!,
      fetch: options.fetch,
    });
    return new Map(documents.map((document) => [document.id, document]));
  } catch (error) {
    throw new SyncStopped(`cannot list the service's documents: ${(error as Error).message}`);
  }
}

async function syncFile(
  source: TrainSource,
  listed: Map<string, ListedDocument> | undefined,
  options: SyncOptions,
  summary: SyncSummary,
  emit: (event: SyncEvent) => void,
): Promise<FileOutcome> {
  const fail = (detail: string) => {
    summary.failures.push({ id: source.documentId, detail });
    emit({ type: 'file', source, outcome: 'failed', detail });
    return 'failed' as const;
  };
  if (source.documentId.length > 200)
    return fail('its document id is longer than 200 characters; use a shorter --prefix');
  const prepared = await prepareSource(source, options.partBytes);
  if (prepared.kind === 'skip') {
    emit({ type: 'file', source, outcome: 'skipped', detail: prepared.reason });
    return 'skipped';
  }
  const sourceUrl = options.sourceUrl ? sourceUrlOf(options.sourceUrl, source.relative) : undefined;
  const known = listed?.get(source.documentId);
  const notes = prepared.kind === 'text' ? prepared.notes : [];
  if (known && known.sha256 === prepared.sha256 && (sourceUrl === undefined || sourceUrl === known.url)) {
    emit({ type: 'file', source, outcome: 'unchanged', notes });
    return 'unchanged';
  }
  if (options.dryRun) {
    const outcome = !listed ? 'would-send' : known ? 'would-replace' : 'would-train';
    emit({ type: 'file', source, outcome, notes });
    return outcome;
  }

  let last: PartResult;
  try {
    last = await sendDocument(source, prepared, sourceUrl, options, (event) => {
      if (event.type === 'part') {
        summary.tokens += event.result.tokens;
        if (event.result.vocabSize) summary.vocabSize = event.result.vocabSize;
      }
      emit(event);
    });
  } catch (error) {
    if (error instanceof TrainPartError && error.refusesEveryFile) {
      const hint = options.owner ? '' : ' (training needs owner credentials here)';
      throw new SyncStopped(`the service refused ${source.documentId}: ${error.message}${hint}`);
    }
    return fail((error as Error).message);
  }
  const outcome =
    last.status === 'replaced' ? 'replaced' : last.status === 'unchanged' ? 'unchanged' : 'trained';
  emit({ type: 'file', source, outcome, notes });
  return outcome;
}

/**
 * Sends one prepared file: a PDF whole, text part by part with the document's fields on each.
 * Resolves with the last answer; part 1 answering `unchanged` ends it (the service has it all).
 */
async function sendDocument(
  source: TrainSource,
  prepared: Exclude<PreparedDocument, { kind: 'skip' }>,
  sourceUrl: string | undefined,
  options: SyncOptions,
  emit: (event: SyncEvent) => void,
): Promise<PartResult> {
  const common = {
    url: options.trainUrl,
    owner: options.owner,
    fetch: options.fetch,
    sleep: options.sleep,
    retries: options.retries,
    onNotice: (notice: SendNotice) => emit({ type: 'notice', source, notice }),
    name: source.documentId,
    documentId: source.documentId,
    sha256: prepared.sha256,
    ...(sourceUrl !== undefined ? { sourceUrl } : {}),
  };
  if (prepared.kind === 'file') {
    const result = await sendFile(prepared.bytes, prepared.filename, common);
    emit({ type: 'part', source, part: 1, parts: 1, bytes: prepared.bytes.byteLength, result });
    return result;
  }
  let part = 0;
  let last: PartResult | undefined;
  for await (const text of prepared.textParts()) {
    part++;
    if (part > prepared.parts) throw new Error('the file changed while it was being sent');
    last = await sendPart(text, { ...common, format: prepared.format, part, parts: prepared.parts });
    const bytes = Buffer.byteLength(text);
    emit({ type: 'part', source, part, parts: prepared.parts, bytes, result: last });
    if (last.status === 'unchanged') break;
  }
  if (!last || last.status === 'pending') {
    throw new Error(`the service still waits for parts after part ${part} of ${prepared.parts}`);
  }
  return last;
}

/** Deletes the documents under each folder's prefix whose files are no longer on disk. */
async function prune(
  listed: Map<string, ListedDocument>,
  options: SyncOptions,
  summary: SyncSummary,
  emit: (event: SyncEvent) => void,
): Promise<void> {
  for (const folder of options.selection.folders) {
    const start = `${folder.prefix}/`;
    for (const id of [...listed.keys()].filter((key) => key.startsWith(start)).sort()) {
      if (existsSync(join(folder.path, ...id.slice(start.length).split('/')))) continue;
      if (options.dryRun) {
        emit({ type: 'would-prune', id });
        summary.pruned++;
        continue;
      }
      try {
        await deleteDocument(id, { base: options.base, owner: options.owner!, fetch: options.fetch });
        emit({ type: 'pruned', id });
        summary.pruned++;
      } catch (error) {
        const detail = `could not delete: ${(error as Error).message}`;
        summary.failed++;
        summary.failures.push({ id, detail });
        emit({ type: 'prune-failed', id, detail });
      }
    }
  }
}
