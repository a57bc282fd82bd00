import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in answers the next requests. */
export type OpenAIStandinBehaviour =
  | 'ok'
  | 'ok-with-reasoning'
  | 'server-error'
  | 'unauthorized'
  | 'slow'
  | 'malformed'
  | 'empty-choices'
  | 'empty-content'
  /** Streams two pieces of the answer, then drops the connection. */
  | 'stream-break'
  /** Streams two pieces of the answer, then waits, the connection open, until the caller leaves. */
  | 'stream-stall';

/** One request the stand-in received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: ChatCompletionRequestBody;
}

interface ChatCompletionRequestBody {
  model?: string;
  stream?: boolean;
  messages?: {
    role: string;
    content: string | { type: string; text?: string; image_url?: { url: string } }[];
  }[];
  [key: string]: unknown;
}

export interface OpenAIStandin {
  /** Ends in `/v1`, as LLM_BASE_URL would. */
  baseUrl: string;
  requests: RecordedRequest[];
  setBehaviour(behaviour: OpenAIStandinBehaviour, options?: { delayMs?: number }): void;
  /** Resolves when the caller of a stalled stream has closed its connection. */
  stalledStreamClosed(): Promise<void>;
  close(): Promise<void>;
}

/** The reasoning the stand-in returns for `ok-with-reasoning`. */
export const standinReasoning = 'The user wants an answer; I will echo their message.';

/**
 * The reply the stand-in gives for a request: derived from the last user message so a test can
 * tell the request arrived intact, including whether an image part came along.
 */
export function standinReply(lastUserText: string, imageMediaType?: string): string {
  const digest = createHash('sha256').update(lastUserText).digest('hex').slice(0, 12);
  return `echo:${lastUserText} digest:${digest} image:${imageMediaType ?? 'none'}`;
}

/** An OpenAI Chat Completions server on 127.0.0.1 speaking the real wire format. */
export async function startOpenAIStandin(): Promise<OpenAIStandin> {
  let behaviour: OpenAIStandinBehaviour = 'ok';
  let delayMs = 10_000;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let stallClosed = deferred();

  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      return sendJson(res, 404, openAIError('Not found', 'invalid_request_error', 'not_found'));
    }
    let body: ChatCompletionRequestBody;
    try {
      body = JSON.parse(text) as ChatCompletionRequestBody;
    } catch {
      return sendJson(res, 400, openAIError('Invalid JSON body', 'invalid_request_error', null));
    }
    requests.push({ method: req.method, path: req.url, headers: flatHeaders(req), body });
    if (behaviour === 'slow') {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer(res, body, 'ok');
      }, delayMs);
      timers.add(timer);
      return;
    }
    if (behaviour === 'stream-stall') {
      stallClosed = deferred();
      res.on('close', () => stallClosed.resolve());
    }
    answer(res, body, behaviour);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    stalledStreamClosed: () => stallClosed.promise,
    setBehaviour(next, options) {
      behaviour = next;
      delayMs = options?.delayMs ?? 10_000;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const failures: Partial<Record<OpenAIStandinBehaviour, { status: number; body: string }>> = {
  'server-error': {
    status: 500,
    body: JSON.stringify(
      openAIError('The server had an error processing your request', 'server_error', null),
    ),
  },
  unauthorized: {
    status: 401,
    body: JSON.stringify(
      openAIError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key'),
    ),
  },
  malformed: { status: 200, body: '{"id": "chatcmpl-standin", "choices": [' },
};

function answer(
  res: ServerResponse,
  body: ChatCompletionRequestBody,
  behaviour: OpenAIStandinBehaviour,
): void {
  const failure = failures[behaviour];
  if (failure) {
    res.writeHead(failure.status, { 'content-type': 'application/json' });
    res.end(failure.body);
    return;
  }
  const model = body.model ?? 'unknown';
  const { text, imageMediaType } = lastUserMessage(body);
  const content = behaviour === 'empty-content' ? '' : standinReply(text, imageMediaType);
  const reasoning = behaviour === 'ok-with-reasoning' ? standinReasoning : undefined;
  const usage = {
    prompt_tokens: wordCount(JSON.stringify(body.messages ?? [])),
    completion_tokens: wordCount(content) + wordCount(reasoning ?? ''),
    total_tokens: 0,
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const base = { id: 'chatcmpl-standin', created: Math.floor(Date.now() / 1000), model };
  if (body.stream) {
    streamAnswer(res, base, content, reasoning, usage, behaviour);
    return;
  }
  const choices =
    behaviour === 'empty-choices'
      ? []
      : [
          {
            index: 0,
            message: { role: 'assistant', content, ...(reasoning ? { reasoning_content: reasoning } : {}) },
            finish_reason: 'stop',
          },
        ];
  sendJson(res, 200, { ...base, object: 'chat.completion', choices, usage });
}

function streamAnswer(
  res: ServerResponse,
  base: Record<string, unknown>,
  content: string,
  reasoning: string | undefined,
  usage: Record<string, number>,
  behaviour: OpenAIStandinBehaviour,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra = {}) =>
    res.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
    );
  if (reasoning) chunk({ role: 'assistant', reasoning_content: reasoning }, null);
  // The answer goes out word by word, as a real model's tokens would.
  const pieces = content.match(/\S+\s*/g) ?? [content];
  if (behaviour === 'stream-break' || behaviour === 'stream-stall') {
    for (const piece of pieces.slice(0, 2)) chunk({ role: 'assistant', content: piece }, null);
    // A clean close in the middle of the chunked body: the data arrives, the body never ends.
    if (behaviour === 'stream-break') res.socket?.end();
    return;
  }
  for (const piece of pieces) chunk({ role: 'assistant', content: piece }, null);
  chunk({}, 'stop', { usage });
  res.end('data: [DONE]\n\n');
}

function lastUserMessage(body: ChatCompletionRequestBody): { text: string; imageMediaType?: string } {
  const last = [...(body.messages ?? [])].reverse().find((message) => message.role === 'user');
  if (!last) return { text: '' };
  if (typeof last.content === 'string') return { text: last.content };
  const text = last.content
    .flatMap((part) => (part.type === 'text' && part.text ? [part.text] : []))
    .join(' ');
  const image = last.content.find((part) => part.type === 'image_url');
  const imageMediaType =
    image?.image_url?.url.match(/^data:([^;,]+)[;,]/)?.[1] ?? (image ? 'url' : undefined);
  return { text, imageMediaType };
}

function openAIError(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
