import { type ErrorCode, HttpError } from '../http/index.js';

/** What Node's HTTP parser reports, and the answer each deserves. */
const ANSWERS: Record<string, { code: ErrorCode; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'headers_too_large',
    reason: 'Request Header Fields Too Large',
    message: 'The request headers are larger than this server accepts (16 KB in all); send smaller headers.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    reason: 'Request Timeout',
    message: 'The request took too long to arrive.',
  },
};
const MALFORMED = {
  code: 'bad_request' as const,
  reason: 'Bad Request',
  message: 'The request is not well-formed HTTP.',
};
/** How long the rest of a refused request is read (and dropped) before the socket is closed. */
const DRAIN_MS = 2000;

/**
 * Answers a request Node's parser refused before any handler saw it (the server's `clientError`):
 * 431 for oversized headers, 408 for a slow request, 400 otherwise, as a JSON error like every
 * other. Node's own answer closes the socket while the client is still sending, which the client
 * sees as a connection reset; here the rest of what it sends is read and dropped for a moment,
 * so the answer arrives.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: {
    writable: boolean;
    end(chunk: string): void;
    resume(): void;
    on(event: 'data' | 'error', listener: () => void): void;
    destroy(): void;
  },
): void {
  socket.on('error', () => {});
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const answer = ANSWERS[error.code ?? ''] ?? MALFORMED;
  const refusal = new HttpError(answer.code, answer.message);
  const body = JSON.stringify(refusal.toBody());
  socket.end(
    [
      `HTTP/1.1 ${refusal.status} ${answer.reason}`,
      'Content-Type: application/json; charset=utf-8',
      'X-Content-Type-Options: nosniff',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
  socket.on('data', () => {});
  socket.resume();
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
}
