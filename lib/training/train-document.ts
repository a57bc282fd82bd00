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
import { parseFileUpload } from '../upload/index.js';
import {
  MAX_TRAIN_FILE_BYTES,
  MAX_TRAIN_TEXT_BYTES,
  TRAIN_BODY_LIMIT_BYTES,
  trainFileFieldsSchema,
  trainRequestSchema,
} from './schema.js';

/**
 * The document a POST /api/train carries: a JSON body `{ text, format?, name? }`, or a multipart
 * form with one file part named `file` (.txt, .md, .html or .pdf; a PDF's text is extracted here)
 * and optional `name` and `format` fields. The 1 MB limit applies to the text, after extraction.
 * Errors: 415 unknown file kind, 400 unreadable PDF or a dialogue without turns, 413 too large
 * (text, pages, inflated bytes), 422 nested too deep or too slow to read (`readBounded`).
 */
export async function trainDocumentOf(
  request: Request,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<StoredDocument> {
  const contentType = request.headers.get('content-type') ?? '';
  const document = cleaned(
    /^multipart\/form-data/i.test(contentType)
      ? await fromUpload(request, limits)
      : fromJson(await readJson(request, TRAIN_BODY_LIMIT_BYTES)),
  );
  const bytes = Buffer.byteLength(document.text, 'utf8');
  if (bytes > MAX_TRAIN_TEXT_BYTES) {
    throw new HttpError(
      'payload_too_large',
      `text is ${bytes} bytes; send at most 1 MB per request (split a larger corpus into several calls).`,
      { limitBytes: MAX_TRAIN_TEXT_BYTES },
    );
  }
  // Markup is read off this thread first, under the read limits: its depth is the sender's choice.
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
  return document;
}

/** The document as it is learned: no control characters in its text (a PDF keeps its page breaks) or name. */
function cleaned(document: StoredDocument): StoredDocument {
  const { name, ...rest } = document;
  const text = cleanTrainingText(document.text, { keepFormFeed: document.format === 'pdf' });
  const cleanedName = name === undefined ? '' : cleanName(name);
  return { ...rest, ...(cleanedName ? { name: cleanedName } : {}), text };
}

function fromJson(body: unknown): StoredDocument {
  const { text, format, name } = validate(trainRequestSchema, body);
  return { format, ...(name ? { name } : {}), text };
}

async function fromUpload(request: Request, limits: ReadLimits): Promise<StoredDocument> {
  const upload = await parseFileUpload(request, { maxBytes: MAX_TRAIN_FILE_BYTES, subject: 'document' });
  const fields = validate(trainFileFieldsSchema, upload.fields);
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
