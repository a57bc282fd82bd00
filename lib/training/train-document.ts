import {
  cleanName,
  cleanTrainingText,
  DEFAULT_READ_LIMITS,
  type ReadLimits,
  readBounded,
  readDialogue,
  requireFormatOfFile,
  type StoredDocument,
} from '../documents/index.js';
import { HttpError, readJson, validate } from '../http/index.js';
import { type ParsedUpload, parseFileUpload } from '../upload/index.js';
import { sha256Hex } from './hash.js';
import {
  MAX_TRAIN_FILE_BYTES,
  MAX_TRAIN_TEXT_BYTES,
  TRAIN_BODY_LIMIT_BYTES,
  type TRAIN_FORMATS,
  trainFileFieldsSchema,
  trainRequestSchema,
} from './schema.js';

/** What a POST /api/train asks for: the document, its identity and content hash, and its part. */
export interface TrainInput {
  document: StoredDocument & { documentId: string };
  /** SHA-256 hex of the bytes sent (the file as it is, or the text); for parts, the whole file's. */
  sha256: string;
  /** Bytes sent (the file as it is, or the text as UTF-8). */
  bytes: number;
  /** The client named the document (`documentId`); otherwise the id came from a file name or the text. */
  namedByClient: boolean;
  /** Part `part` of `parts` of a larger file (absent: the whole document in one request). */
  part?: { part: number; parts: number };
}

/** The id of plain text sent without one: `text-` and the first 16 hex digits of its SHA-256. */
export function textDocumentId(text: string): string {
  return `text-${sha256Hex(Buffer.from(text, 'utf8')).slice(0, 16)}`;
}

/**
 * What a POST /api/train asks for (`trainDocumentOf` and the document's identity): without a
 * `documentId`, a file's id is its name and plain text's is `textDocumentId`.
 */
export async function trainInputOf(
  request: Request,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<TrainInput> {
  const contentType = request.headers.get('content-type') ?? '';
  const input = /^multipart\/form-data/i.test(contentType)
    ? await fromUploadInput(request, limits)
    : fromJsonInput(await readJson(request, TRAIN_BODY_LIMIT_BYTES));
  // The identity and the hash are of what was sent; what is learned is the cleaned text.
  const document = { ...cleaned(input.document), documentId: input.document.documentId };
  await checkDocument(document, limits);
  return { ...input, document };
}

/** The document as it is learned: no control characters in its text (a PDF keeps its page breaks) or name. */
function cleaned<T extends StoredDocument>(document: T): T {
  const { name, ...rest } = document;
  const text = cleanTrainingText(document.text, { keepFormFeed: document.format === 'pdf' });
  const cleanedName = name === undefined ? '' : cleanName(name);
  return { ...rest, ...(cleanedName ? { name: cleanedName } : {}), text } as T;
}

function fromJsonInput(body: unknown): TrainInput {
  const { text, format, name, documentId, url, sha256, part, parts } = validate(trainRequestSchema, body);
  if ((part === undefined) !== (parts === undefined))
    throw new HttpError('validation_failed', 'part and parts: send both or neither', {
      field: part === undefined ? 'part' : 'parts',
    });
  if (part !== undefined && parts !== undefined) {
    if (part > parts)
      throw new HttpError('validation_failed', `part: ${part} is past parts (${parts})`, { field: 'part' });
    if (parts > 1 && (documentId === undefined || sha256 === undefined))
      throw new HttpError(
        'validation_failed',
        "documentId and sha256: a document sent in parts needs its id and the whole file's SHA-256 on every part",
        { field: documentId === undefined ? 'documentId' : 'sha256' },
      );
  }
  const id = documentId ?? textDocumentId(text);
  return {
    document: { format, ...(name ? { name } : {}), documentId: id, ...(url ? { url } : {}), text },
    sha256: sha256 ?? sha256Hex(Buffer.from(text, 'utf8')),
    bytes: Buffer.byteLength(text, 'utf8'),
    namedByClient: documentId !== undefined,
    ...(part !== undefined && parts !== undefined && parts > 1 ? { part: { part, parts } } : {}),
  };
}

async function fromUploadInput(request: Request, limits: ReadLimits): Promise<TrainInput> {
  const upload = await parseFileUpload(request, { maxBytes: MAX_TRAIN_FILE_BYTES, subject: 'document' });
  const fields = validate(trainFileFieldsSchema, upload.fields);
  const document = await documentOfUpload(upload, fields, limits);
  const fileName = upload.filename === undefined ? undefined : cleanName(upload.filename) || undefined;
  const id = fields.documentId ?? fileName ?? fields.name;
  if (id === undefined || validateId(id) === undefined)
    throw new HttpError(
      'validation_failed',
      'documentId: the file has no usable name to serve as its id; send a documentId field',
      { field: 'documentId' },
    );
  return {
    document: { ...document, documentId: id, ...(fields.url ? { url: fields.url } : {}) },
    sha256: fields.sha256 ?? sha256Hex(upload.bytes),
    bytes: upload.bytes.byteLength,
    namedByClient: fields.documentId !== undefined,
  };
}

function validateId(id: string): string | undefined {
  return id.length >= 1 && id.length <= 200 && !/\p{Cc}/u.test(id) && id.trim() !== '' ? id : undefined;
}

/**
 * The 1 MB cap on the text (after extraction), markup read off this thread under the read limits
 * (its depth is the sender's choice: 422 when nested too deep or too slow), a dialogue's turns.
 */
async function checkDocument(document: StoredDocument, limits: ReadLimits): Promise<void> {
  const bytes = Buffer.byteLength(document.text, 'utf8');
  if (bytes > MAX_TRAIN_TEXT_BYTES) {
    throw new HttpError(
      'payload_too_large',
      `text is ${bytes} bytes; send at most 1 MB per request (split a larger corpus into several calls).`,
      { limitBytes: MAX_TRAIN_TEXT_BYTES },
    );
  }
  if (document.format === 'markdown' || document.format === 'html') {
    await readBounded({ kind: 'text', format: document.format, text: document.text }, limits);
  }
  if (document.format === 'dialogue' && readDialogue(document.text).length === 0) {
    throw new HttpError(
      'validation_failed',
      'text: holds no dialogue; write alternating "User:" and "Assistant:" lines, or "Q:" and "A:" pairs.',
      { field: 'text' },
    );
  }
}

/** The document of a multipart train: its file read by its kind (a PDF's text extracted here). */
async function documentOfUpload(
  upload: ParsedUpload,
  fields: { name?: string; format?: (typeof TRAIN_FORMATS)[number] },
  limits: ReadLimits,
): Promise<StoredDocument> {
  const kind = requireFormatOfFile(upload.filename, upload.declaredType);
  const name = fields.name ?? upload.filename;
  const named = name ? { name } : {};
  if (kind === 'pdf')
    return { format: 'pdf', ...named, text: await readBounded({ kind: 'pdf', bytes: upload.bytes }, limits) };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(upload.bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new HttpError('bad_request', `${name ?? 'The file'} is not UTF-8 text.`);
  }
  if (text.trim() === '') throw new HttpError('bad_request', `${name ?? 'The file'} holds no text.`);
  return { format: fields.format ?? kind, ...named, text };
}
