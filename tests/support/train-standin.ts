/**
 * A stand-in for the service's document API (issue 29's contract, as /work/shared COMMON.md
 * states it) on 127.0.0.1, for testing `npm run train` end to end before the real server has it:
 * POST /api/train (JSON and the file form) with documentId, url, sha256, part and parts answering
 * trained / replaced / unchanged / pending; 409 train_in_progress with Retry-After; 422
 * idempotency_conflict; GET and DELETE /api/admin/documents behind the owner's headers. It keeps
 * count of how often each document's text was learnt, which is what "exactly once" is about.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface StoredStandInDocument {
  id: string;
  name: string;
  format: string;
  bytes: number;
  sha256: string;
  passages: number;
  url?: string;
  trainedAt: string;
  text: string;
}

export interface TrainRequestSeen {
  method: string;
  path: string;
  documentId?: string;
  part?: number;
  owner: boolean;
}

export interface TrainStandIn {
  url: string;
  documents: Map<string, StoredStandInDocument>;
  /** How many times each document id's text was learnt (trained or replaced). */
  learnt: Map<string, number>;
  requests: TrainRequestSeen[];
  /** Parts received of documents not complete yet. */
  pending: Map<string, { sha256: string; parts: number; received: Map<number, string>; format: string }>;
  /** Document ids answered 409 train_in_progress (Retry-After: 1) this many more times. */
  busy: Map<string, number>;
  /** Document ids answered 500 this many more times. */
  failing: Map<string, number>;
  /** Document ids answered 422 idempotency_conflict. */
  conflicting: Set<string>;
  /**
   * Called on each train request once it is read, before it is learnt (a test may kill the CLI
   * here); answering `crash` drops the request unlearnt and unanswered, as a server killed then would.
   */
  onTrain?: (seen: TrainRequestSeen) => undefined | 'crash';
  close(): Promise<void>;
}

export interface StandInOptions {
  ownerEmail?: string;
  adminToken?: string;
  /** `owner`: training needs the owner's headers (TRAIN_ACCESS=owner). */
  trainAccess?: 'open' | 'owner';
  /** Documents per page of GET /api/admin/documents at most. */
  maxPage?: number;
  /** Listen on this port (a restarted stand-in takes its predecessor's). */
  port?: number;
  /** Start from what this (closed) stand-in stored: its documents, counts and parts, as a store would keep them. */
  after?: TrainStandIn;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

class Crash extends Error {}

const sha256Of = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const FORMATS = ['text', 'markdown', 'html', 'dialogue', 'vimhelp'];

export async function startTrainStandIn(options: StandInOptions = {}): Promise<TrainStandIn> {
  const email = options.ownerEmail ?? 'owner@example.org';
  const token = options.adminToken ?? 'standin-admin-token';
  const documents = options.after?.documents ?? new Map<string, StoredStandInDocument>();
  const learnt = options.after?.learnt ?? new Map<string, number>();
  const pending: TrainStandIn['pending'] =
    options.after?.pending ??
    new Map<string, { sha256: string; parts: number; received: Map<number, string>; format: string }>();
  const requests: TrainRequestSeen[] = [];
  const busy = new Map<string, number>();
  const failing = new Map<string, number>();
  const conflicting = new Set<string>();

  /** true for the owner, false for a visitor; a wrong proof is a 403. */
  const ownerOf = (req: IncomingMessage): boolean => {
    const claimed = req.headers['x-owner-email'];
    if (claimed === undefined) return false;
    if (claimed !== email || req.headers.authorization !== `Bearer ${token}`) {
      throw new Refusal(403, 'forbidden', 'the owner credentials are not valid');
    }
    return true;
  };

  const learn = (fields: {
    id: string;
    name: string;
    format: string;
    text: string;
    sha256: string;
    bytes: number;
    url?: string;
  }) => {
    const before = documents.get(fields.id);
    documents.set(fields.id, {
      id: fields.id,
      name: fields.name,
      format: fields.format,
      bytes: fields.bytes,
      sha256: fields.sha256,
      passages: fields.text.split(/\n\s*\n/).filter((block) => block.trim()).length,
      ...(fields.url !== undefined ? { url: fields.url } : {}),
      trainedAt: new Date().toISOString(),
      text: fields.text,
    });
    learnt.set(fields.id, (learnt.get(fields.id) ?? 0) + 1);
    return before ? 'replaced' : 'trained';
  };

  const vocabSize = () =>
    new Set([...documents.values()].flatMap((document) => document.text.toLowerCase().match(/\w+/g) ?? []))
      .size;

  const train = async (req: IncomingMessage, owner: boolean) => {
    const type = req.headers['content-type'] ?? '';
    let fields: Record<string, unknown>;
    let text: string;
    let bytes: Uint8Array;
    if (type.startsWith('multipart/form-data')) {
      const form = await new Request('http://standin/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: Readable.toWeb(req) as ReadableStream,
        duplex: 'half',
      } as RequestInit).formData();
      const file = form.get('file');
      if (!(file instanceof File)) throw new Refusal(400, 'invalid_request', 'file is required');
      bytes = new Uint8Array(await file.arrayBuffer());
      text = `[file ${file.name}: ${bytes.byteLength} bytes]`;
      fields = Object.fromEntries([...form.entries()].filter(([key]) => key !== 'file'));
      fields.name ??= file.name;
      fields.format = file.name.toLowerCase().endsWith('.pdf') ? 'pdf' : (fields.format ?? 'text');
    } else {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      try {
        fields = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        throw new Refusal(400, 'invalid_json', 'the body is not JSON');
      }
      if (typeof fields.text !== 'string' || fields.text.trim() === '') {
        throw new Refusal(400, 'invalid_request', 'text is required');
      }
      text = fields.text;
      bytes = new TextEncoder().encode(text);
      if (fields.format !== undefined && !FORMATS.includes(String(fields.format))) {
        throw new Refusal(400, 'invalid_request', 'format is not known');
      }
    }
    const format = String(fields.format ?? 'text');
    const documentId = fields.documentId === undefined ? undefined : String(fields.documentId);
    if (
      documentId !== undefined &&
      (documentId.length < 1 || documentId.length > 200 || /[\u0000-\u001f\u007f]/.test(documentId))
    ) {
      throw new Refusal(400, 'invalid_request', 'documentId must be 1-200 printable characters');
    }
    const url = fields.url === undefined ? undefined : String(fields.url);
    if (url !== undefined && !/^https?:\/\//i.test(url))
      throw new Refusal(400, 'invalid_request', 'url must be http(s)');
    const name = fields.name === undefined ? undefined : String(fields.name);
    const id = documentId ?? name ?? `text-${sha256Of(text).slice(0, 16)}`;
    const part = fields.part === undefined ? undefined : Number(fields.part);
    const parts = fields.parts === undefined ? undefined : Number(fields.parts);
    const seen = { method: 'POST', path: '/api/train', documentId: id, part, owner };
    requests.push(seen);
    if (options.trainAccess === 'owner' && !owner) {
      throw new Refusal(401, 'unauthorized', 'training needs the owner credentials');
    }

    const busyLeft = busy.get(id) ?? 0;
    if (busyLeft > 0) {
      busy.set(id, busyLeft - 1);
      throw new Refusal(409, 'train_in_progress', `${id} is being trained; retry`, { 'retry-after': '1' });
    }
    const failLeft = failing.get(id) ?? 0;
    if (failLeft > 0) {
      failing.set(id, failLeft - 1);
      throw new Refusal(500, 'internal_error', 'something went wrong');
    }
    if (conflicting.has(id)) {
      throw new Refusal(
        422,
        'idempotency_conflict',
        `${id} was sent before with other content under the same key`,
      );
    }
    if (standIn.onTrain?.(seen) === 'crash') throw new Crash();

    const stored = documents.get(id);
    if (parts === undefined || parts === 1) {
      const sha256 = sha256Of(bytes);
      if (fields.sha256 !== undefined && fields.sha256 !== sha256) {
        throw new Refusal(400, 'invalid_request', 'sha256 is not the SHA-256 of the bytes sent');
      }
      if (stored?.sha256 === sha256)
        return {
          status: 200,
          body: { documentId: id, status: 'unchanged', tokens: 0, vocabSize: vocabSize() },
        };
      const status = learn({ id, name: name ?? id, format, text, sha256, bytes: bytes.byteLength, url });
      return {
        status: 200,
        body: { ok: true, documentId: id, status, tokens: text.split(/\s+/).length, vocabSize: vocabSize() },
      };
    }
    if (!Number.isInteger(part) || !Number.isInteger(parts) || part! < 1 || part! > parts!) {
      throw new Refusal(400, 'invalid_request', 'part must be a whole number from 1 to parts');
    }
    const sha256 = String(fields.sha256 ?? '');
    if (!/^[0-9a-f]{64}$/.test(sha256))
      throw new Refusal(400, 'invalid_request', 'parts need the whole sha256');
    if (part === 1 && stored?.sha256 === sha256) {
      return {
        status: 200,
        body: { documentId: id, status: 'unchanged', tokens: 0, vocabSize: vocabSize() },
      };
    }
    let upload = pending.get(id);
    if (!upload || upload.sha256 !== sha256 || upload.parts !== parts) {
      upload = { sha256, parts: parts!, received: new Map(), format };
      pending.set(id, upload);
    }
    const before = upload.received.get(part!);
    if (before !== undefined && before !== text) {
      throw new Refusal(
        422,
        'idempotency_conflict',
        `part ${part} of ${id} was sent before with other content`,
      );
    }
    upload.received.set(part!, text);
    if (upload.received.size < parts!)
      return { status: 202, body: { documentId: id, status: 'pending', part, parts } };
    pending.delete(id);
    const whole = Array.from({ length: parts! }, (_, index) => upload.received.get(index + 1)!).join('\n\n');
    const status = learn({
      id,
      name: name ?? id,
      format,
      text: whole,
      sha256,
      bytes: Buffer.byteLength(whole),
      url,
    });
    return {
      status: 200,
      body: { ok: true, documentId: id, status, tokens: whole.split(/\s+/).length, vocabSize: vocabSize() },
    };
  };

  const admin = (req: IncomingMessage, url: URL) => {
    if (req.headers['x-owner-email'] === undefined)
      throw new Refusal(401, 'unauthorized', 'admin credentials are required');
    ownerOf(req);
    requests.push({
      method: req.method!,
      path: url.pathname,
      documentId: url.searchParams.get('id') ?? undefined,
      owner: true,
    });
    if (req.method === 'GET') {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 100), options.maxPage ?? 100);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const all = [...documents.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
      const page = all.slice(start, start + limit).map(({ text: _text, ...listed }) => listed);
      const next = start + limit < all.length ? String(start + limit) : undefined;
      return { status: 200, body: { documents: page, ...(next ? { nextCursor: next } : {}) } };
    }
    if (req.method === 'DELETE') {
      const id = url.searchParams.get('id') ?? '';
      if (!documents.delete(id)) throw new Refusal(404, 'document_not_found', `no document ${id}`);
      return { status: 200, body: { deleted: id } };
    }
    throw new Refusal(405, 'method_not_allowed', 'GET or DELETE');
  };

  const answer = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    try {
      if (url.pathname === '/api/health') return answer(res, 200, { ok: true, vocabSize: vocabSize() });
      const owner = ownerOf(req);
      if (url.pathname === '/api/train' && req.method === 'POST') {
        const { status, body } = await train(req, owner);
        return answer(res, status, body);
      }
      if (url.pathname === '/api/admin/documents') {
        const { status, body } = admin(req, url);
        return answer(res, status, body);
      }
      throw new Refusal(404, 'not_found', 'no such route');
    } catch (error) {
      if (error instanceof Crash) return res.socket?.destroy();
      if (error instanceof Refusal)
        return answer(res, error.status, { error: error.message, code: error.code }, error.headers);
      return answer(res, 500, { error: 'stand-in failure', code: 'internal_error' });
    }
  });
  await new Promise<void>((ready) => server.listen(options.port ?? 0, '127.0.0.1', ready));
  const standIn: TrainStandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    documents,
    learnt,
    pending,
    requests,
    busy,
    failing,
    conflicting,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  return standIn;
}

/** The owner headers' values the stand-in accepts by default. */
export const STANDIN_OWNER = { email: 'owner@example.org', token: 'standin-admin-token' };
