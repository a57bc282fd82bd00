import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { chatHandlers } from '../lib/chat/handlers.js';
import type { DocumentFormat } from '../lib/documents/index.js';
import { endpoint } from '../lib/http/index.js';
import { chatCompletionsHandlers, openAIErrorResponse } from '../lib/openai/index.js';
import type { Services } from '../lib/services/index.js';
import { trainHandlers } from '../lib/training/handlers.js';
import { variantBChatHandlers } from '../lib/variant-b/handlers.js';
import { trainingParts } from './bench-services.js';

/** One turn of a conversation as a client keeps it. */
export interface BenchTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A reply as a benchmark reads it, whichever way it was asked. */
export interface BenchReply {
  text: string;
  thought?: string;
  /** Variant B's `tokens`, /api/v1's `usage.completion_tokens`. */
  tokens?: number;
  /** /api/v1's `finish_reason`. */
  finish?: string;
  status: number;
  /** How many passages the reply cites (Variant A's `sources`; Variant B's where its JSON has them). */
  sources?: number;
  /** The reply's `confidence` where the JSON carries it (issue 27: `level` answer, nearest or none). */
  confidence?: BenchConfidence;
}

/** A reply's `confidence`, as issue 27 adds it beside the spec's fields. */
export interface BenchConfidence {
  score?: number;
  level?: 'answer' | 'nearest' | 'none';
}

/**
 * The service's own handlers called in process, as a client calls them over HTTP: training
 * (`POST /api/train` with `format` and `name`), Variant A, Variant B and /api/v1.
 */
export function benchClient(services: Services) {
  const train = endpoint(trainHandlers(() => services));
  const a = endpoint(chatHandlers(() => services));
  const b = endpoint(variantBChatHandlers(() => services));
  const v1 = endpoint(
    chatCompletionsHandlers(() => services),
    { renderError: openAIErrorResponse },
  );
  return {
    /**
     * Trains a document through POST /api/train with its format and name, in parts under the 1 MB
     * cap: each part a document of its own, or, with `documentId`, the parts of one document as
     * `npm run train` sends them (the whole text's SHA-256 on each, put together by the service).
     */
    async train(
      text: string,
      options: { format?: DocumentFormat; name?: string; documentId?: string } = {},
    ): Promise<void> {
      const parts = trainingParts(text);
      const whole =
        options.documentId !== undefined && parts.length > 1
          ? { sha256: createHash('sha256').update(text).digest('hex'), parts: parts.length }
          : null;
      for (const [index, part] of parts.entries()) {
        const body = whole
          ? { text: part, ...options, ...whole, part: index + 1 }
          : { text: part, ...options };
        const response = await train.fetch(post('/api/train', body));
        if (!response.ok) {
          throw new Error(`train ${options.name ?? ''}: ${response.status} ${await response.text()}`);
        }
      }
    },
    /** Trains a file as the upload form sends it (POST /api/train, multipart): a PDF goes this way. */
    async trainFile(bytes: Uint8Array<ArrayBuffer>, filename: string): Promise<void> {
      const form = new FormData();
      form.set('file', new Blob([bytes]), filename);
      const response = await train.fetch(
        new Request('http://127.0.0.1/api/train', {
          method: 'POST',
          headers: { 'x-real-ip': '127.0.0.1' },
          body: form,
        }),
      );
      if (!response.ok) throw new Error(`train ${filename}: ${response.status} ${await response.text()}`);
    },
    async askA(
      message: string,
      options: { sessionId: string; modelMode?: string; raw?: boolean; maxTokens?: number },
    ): Promise<BenchReply> {
      const response = await a.fetch(post('/api/chat', { message, raw: true, ...options }));
      const body = (await response.json()) as {
        response?: string;
        thought?: string;
        error?: string;
        sources?: unknown[];
        confidence?: BenchConfidence;
      };
      return {
        text: body.response ?? `ERROR ${body.error}`,
        thought: body.thought,
        status: response.status,
        sources: body.sources?.length,
        confidence: body.confidence,
      };
    },
    async askB(
      message: string,
      options: { history?: BenchTurn[]; mode?: string; maxTokens?: number } = {},
    ): Promise<BenchReply> {
      const response = await b.fetch(post('/api/api/chat', { message, mode: 'standard', ...options }));
      const body = (await response.json()) as {
        response?: string;
        tokens?: number;
        error?: string;
        thought?: string;
        sources?: unknown[];
        confidence?: BenchConfidence;
      };
      return {
        text: body.response ?? `ERROR ${body.error}`,
        tokens: body.tokens,
        status: response.status,
        thought: body.thought,
        sources: body.sources?.length,
        confidence: body.confidence,
      };
    },
    async askV1(
      messages: BenchTurn[],
      options: { model?: string; max_tokens?: number } = {},
    ): Promise<BenchReply> {
      const response = await v1.fetch(
        post('/api/v1/chat/completions', { model: 'local-expert', messages, ...options }),
      );
      const body = (await response.json()) as {
        choices?: { message: { content: string }; finish_reason: string }[];
        usage?: { completion_tokens: number };
        error?: { message: string };
      };
      const choice = body.choices?.[0];
      return {
        text: choice?.message.content ?? `ERROR ${body.error?.message}`,
        finish: choice?.finish_reason,
        tokens: body.usage?.completion_tokens,
        status: response.status,
      };
    },
  };
}

export type BenchClient = ReturnType<typeof benchClient>;

function post(path: string, body: unknown): Request {
  return new Request(`http://127.0.0.1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-real-ip': '127.0.0.1' },
    body: JSON.stringify(body),
  });
}

/** The shared corpora folder: `--corpora DIR`, else the first of ../shared/corpora, ../../shared/corpora. */
export function corporaDir(given?: string): string {
  const found = [given, '../shared/corpora', '../../shared/corpora'].find((dir) => dir && existsSync(dir));
  if (!found)
    throw new Error('no corpora folder: pass --corpora DIR (the shared corpora, with kjv/ and docs/)');
  return found;
}

/** A file of a benchmark: `corpora/...` under the corpora folder, else as given; a .gz is unpacked. */
export function readBenchFile(path: string, corpora: string): string | undefined {
  const resolved = path.startsWith('corpora/') ? `${corpora}/${path.slice('corpora/'.length)}` : path;
  if (!existsSync(resolved)) return undefined;
  const bytes = readFileSync(resolved);
  return (resolved.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

const escapeRegExp = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * True when an acceptable word is among the first `firstWords` words of the reply, as a whole
 * word, case-insensitively (`ignore-case` matches `--ignore-case`; `id_rsa` only whole).
 */
export function mentions(reply: string, acceptable: readonly string[], firstWords: number): boolean {
  const head = reply.split(/\s+/).filter(Boolean).slice(0, firstWords).join(' ');
  return acceptable.some((word) =>
    new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(word)}(?![A-Za-z0-9_])`, 'i').test(head),
  );
}

/** "12/15 (80%)" */
export function rate(n: number, of: number): string {
  return `${n}/${of} (${of ? Math.round((100 * n) / of) : 0}%)`;
}

/** A reply on one line, shortened for a report. */
export function oneLine(text: string, max = 220): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
