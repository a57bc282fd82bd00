import { HttpError } from './errors.js';

/** Default cap on JSON request bodies; endpoints may ask for a larger one. */
export const DEFAULT_JSON_LIMIT_BYTES = 64 * 1024;

/**
 * Reads a request body up to `limitBytes`, stopping (413) as soon as it passes the cap, so an
 * oversized body is never buffered whole.
 */
export async function readBodyLimited(request: Request, limitBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limitBytes);
    }
    parts.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.byteLength;
  }
  return body;
}

function tooLarge(limitBytes: number): HttpError {
  return new HttpError('payload_too_large', `The request body is larger than ${formatBytes(limitBytes)}.`, {
    limitBytes,
  });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) ? 1 : 0)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * Parses a JSON request body: 415 unless Content-Type is JSON, 413 past the cap, 400 when the
 * body is empty or not valid JSON.
 */
export async function readJson(request: Request, limitBytes = DEFAULT_JSON_LIMIT_BYTES): Promise<unknown> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new HttpError(
      'unsupported_media_type',
      'Send the request body as JSON with the header Content-Type: application/json.',
    );
  }
  const bytes = await readBodyLimited(request, limitBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError('invalid_json', 'The request body is not valid UTF-8 text.');
  }
  if (text.trim() === '')
    throw new HttpError('invalid_json', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the body back; say where it broke in our own words instead.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new HttpError(
      'invalid_json',
      `The request body is not valid JSON${at === undefined ? ' (it ends too early or is not JSON at all)' : ` (the error is at character ${at})`}; send a JSON object.`,
      at === undefined ? {} : { position: Number(at) },
    );
  }
}
