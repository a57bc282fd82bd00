import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy, { type Busboy } from 'busboy';
import { HttpError } from '../http/errors.js';
import { logInfo } from '../log/index.js';
import { formatByteLimit } from '../vision/limits.js';

/** The one file of an upload, as sent; its declared type and name are informative only. */
export interface ParsedUpload {
  bytes: Uint8Array;
  filename?: string;
  declaredType?: string;
  /** The small text fields sent beside the file (at most 8, 1 KB each). */
  fields: Record<string, string>;
}

export interface UploadOptions {
  maxBytes: number;
  /** What the file is, for messages ("image", "document"); default "image". */
  subject?: string;
}

/**
 * Room for boundaries, part headers and the few small fields allowed besides the file: a body
 * longer than the file cap plus this is refused whatever it holds (declared or counted).
 */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const FILE_FIELD = 'file';

/**
 * Reads a multipart/form-data upload as a stream and returns its one file part named `file`.
 * Throws HttpError 415 when the body is not multipart/form-data; 413 as soon as the file passes
 * `maxBytes` (reading stops and nothing read is kept); 400 for a missing or empty `file` part,
 * more than one file part, and malformed multipart (bad boundary, oversized part header,
 * truncated body).
 */
export async function parseImageUpload(request: Request, options: UploadOptions): Promise<ParsedUpload> {
  const { maxBytes } = options;
  const subject = options.subject ?? 'image';
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw new HttpError(
      'unsupported_media_type',
      `Send the ${subject} as multipart/form-data with one file part named "file".`,
    );
  }
  const declaredLength = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declaredLength) && declaredLength > maxBytes + MULTIPART_OVERHEAD_BYTES) {
    throw tooLarge(maxBytes, subject);
  }
  if (!request.body) throw missingFile();

  let parser: Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // Browsers and curl send a file name's UTF-8 bytes as they are; busboy would read them as Latin-1.
      defParamCharset: 'utf8',
      // busboy flags a file as over the limit once it reaches fileSize bytes, so allow one more:
      // a file of exactly maxBytes passes and the byte after it trips the limit.
      limits: { fileSize: maxBytes + 1, files: 1, fields: 8, fieldSize: 1024, parts: 16 },
    });
  } catch (error) {
    throw malformed(error);
  }
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  return collectFile(source, parser, maxBytes, subject);
}

/** The same for any file kind: the request's one file part and its fields. */
export const parseFileUpload = parseImageUpload;

function collectFile(
  source: Readable,
  parser: Busboy,
  maxBytes: number,
  subject: string,
): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let upload: ParsedUpload | undefined;
    let fileSentAsText = false;
    const fields: Record<string, string> = {};

    const fail = (error: HttpError) => {
      if (settled) return;
      settled = true;
      reject(error);
      // Torn down on the next tick: busboy still touches its state after emitting an event.
      process.nextTick(() => {
        source.unpipe(parser);
        source.destroy();
        parser.destroy();
      });
    };

    parser.on('file', (name, stream, info) => {
      if (name !== FILE_FIELD) {
        stream.on('error', () => {});
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        chunks.length = 0;
        fail(tooLarge(maxBytes, subject));
      });
      stream.on('error', (error) => fail(malformed(error)));
      stream.on('end', () => {
        if (settled) return;
        upload = {
          bytes: Buffer.concat(chunks),
          ...(info.filename ? { filename: info.filename } : {}),
          ...(info.mimeType ? { declaredType: info.mimeType } : {}),
          fields,
        };
      });
    });
    parser.on('field', (name, value) => {
      if (name === FILE_FIELD) fileSentAsText = true;
      else fields[name] = value;
    });
    parser.on('filesLimit', () =>
      fail(new HttpError('bad_request', 'Send exactly one file part named "file"; this upload has more.')),
    );
    parser.on('error', (error) => fail(malformed(error)));
    parser.on('close', () => {
      if (settled) return;
      if (!upload) return fail(fileSentAsText ? fileAsText() : missingFile());
      if (upload.bytes.length === 0) return fail(new HttpError('bad_request', 'The uploaded file is empty.'));
      settled = true;
      resolve(upload);
    });
    let received = 0;
    source.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes + MULTIPART_OVERHEAD_BYTES) fail(tooLarge(maxBytes, subject));
    });
    source.on('error', (error) => fail(malformed(error)));
    source.pipe(parser);
  });
}

function tooLarge(maxBytes: number, subject: string): HttpError {
  return new HttpError('payload_too_large', `The ${subject} is larger than ${formatByteLimit(maxBytes)}.`, {
    limitBytes: maxBytes,
  });
}

function missingFile(): HttpError {
  return new HttpError('bad_request', 'The upload has no file part named "file"; send exactly one.');
}

function fileAsText(): HttpError {
  return new HttpError(
    'bad_request',
    'The "file" part arrived as a text field; send it as a file (with a filename).',
  );
}

/** busboy's own words go to the log; the response says what to check. */
function malformed(error: unknown): HttpError {
  logInfo('multipart_malformed', { detail: error instanceof Error ? error.message : String(error) });
  return new HttpError(
    'bad_request',
    'The multipart body is malformed: check that the boundary in Content-Type matches the body, each part has a Content-Disposition header, and the body is complete.',
  );
}
