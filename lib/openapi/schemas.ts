import { chatRequestSchema, chatResponseSchema } from '../chat/schema.js';
import { sourceSchema } from '../citations/schema.js';
import { type ErrorCode, errorStatus } from '../http/errors.js';
import {
  feedbackRequestSchema,
  feedbackResponseSchema,
  questionsResponseSchema,
} from '../questions/schema.js';
import { suggestionsResponseSchema } from '../suggestions/handlers.js';
import { trainRequestSchema } from '../training/schema.js';
import {
  variantBHealthDegradedSchema,
  variantBHealthSchema,
  variantBRequestSchema,
  variantBResponseSchema,
} from '../variant-b/schema.js';
import { fromValibot } from './from-valibot.js';
import type { JsonSchema } from './types.js';

/** A reference to a schema of `components/schemas`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The machine codes that answer with `status`, from the one table in lib/http/errors. */
export function codesWithStatus(status: number): ErrorCode[] {
  return (Object.keys(errorStatus) as ErrorCode[]).filter((code) => errorStatus[code] === status);
}

const count: JsonSchema = { type: 'integer', minimum: 0 };
const imageMimeType: JsonSchema = {
  type: 'string',
  enum: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/heic'],
};

const errorBody: JsonSchema = {
  type: 'object',
  description:
    'Every error: a message a person can act on, a machine code, and fields that help (limit, remaining, retryAfter ...).',
  required: ['error', 'code'],
  properties: {
    error: { type: 'string', minLength: 1 },
    code: { type: 'string', enum: Object.keys(errorStatus) },
  },
};

/** An error body whose code is one of `codes`, with optional extra fields. */
function errorWith(
  codes: readonly string[],
  extra: Record<string, JsonSchema> = {},
  required: string[] = [],
) {
  return {
    allOf: [
      ref('ErrorBody'),
      {
        type: 'object',
        required: ['error', 'code', ...required],
        properties: { code: { type: 'string', enum: [...codes] }, ...extra },
      },
    ],
  } satisfies JsonSchema;
}

export const schemas: Record<string, JsonSchema> = {
  ErrorBody: errorBody,
  ValidationError: errorWith(codesWithStatus(400), {
    field: {
      type: ['string', 'null'],
      description: 'Dot path of the first invalid field, null for the body.',
    },
    fields: { type: 'array', items: { type: 'string' } },
  }),
  PayloadTooLargeError: errorWith(codesWithStatus(413), {
    limitBytes: count,
    limit: {
      type: 'string',
      description: 'POST /train: the bound passed, MAX_PDF_PAGES, MAX_INFLATED_BYTES or text.',
    },
    found: count,
    max: count,
    corpusBytes: {
      type: 'integer',
      minimum: 0,
      description: 'POST /train past MAX_CORPUS_BYTES: bytes of text the corpus holds already.',
    },
  }),
  DocumentRefusedError: errorWith(codesWithStatus(422), {
    limit: {
      type: 'string',
      description:
        'The bound the document passed: MAX_NESTING, DOCUMENT_READ_TIMEOUT_MS, memory, page_tree (a PDF page reached twice), unreadable.',
    },
    found: count,
    max: count,
  }),
  SessionLimitError: errorWith(
    ['session_limit'],
    { limit: { type: 'integer', minimum: 1 }, remaining: { const: 0 } },
    ['limit', 'remaining'],
  ),
  ServiceUnavailableError: errorWith(codesWithStatus(503), {
    retryAfter: { type: 'integer', minimum: 0, description: 'Seconds to wait, as in Retry-After.' },
  }),
  RateLimitedError: errorWith(
    ['rate_limited'],
    { retryAfter: { type: 'integer', minimum: 0, description: 'Seconds to wait, as in Retry-After.' } },
    ['retryAfter'],
  ),

  ChatRequest: fromValibot(chatRequestSchema, {
    properties: {
      sessionId: 'The conversation; its allowance of messages is counted per session.',
      userId: 'Caller-chosen user identifier for tracking.',
      raw: 'When true, the local model answers alone, without the external model.',
      imageBase64:
        'An image for vision analysis: plain base64 or a data: URL (at most 5 MB decoded). Its text is read and answers questions about it.',
      imageId:
        'Instead of imageBase64: an image uploaded with POST /api/upload, by its id (unknown or expired: 404). Any client holding the id may use it.',
      maxTokens:
        'The longest reply in tokens (words and punctuation marks each count one; "Naomi." is 2). A longer reply is cut after its last whole word that fits and ends with "…", counted in the limit.',
      stream:
        'true: the reply as server-sent events (as Accept: text/event-stream asks); false: JSON whatever Accept says.',
    },
  }),
  Source: fromValibot(sourceSchema, {
    description:
      'A passage the reply used: from the trained text (chunk and line), in www mode an article, or the text read in an image (image and line).',
    properties: {
      text: 'The passage as it was taught (plain text).',
      score: 'Retrieval score (BM25, higher is more relevant).',
      ref: 'Where the passage is: { chunk, line } of the trained text (chunk 1 = the first POST /api/train), { title, url } of an article, or { image, line } of the text read in an image (its id: SHA-256 of its bytes).',
      section:
        'The heading path of the passage\'s section, outermost first, joined with " > " ("tar > Options > strip"); absent when the text has no headings.',
      file: "The file name the text was trained under (`name`, or the uploaded file's name).",
      page: 'The page of a PDF the passage is on.',
      title: "The citation's title: the document's name (an article's title).",
      url: 'Where the passage can be read: the document\'s url given at training plus "#" the section\'s anchor (an HTML id, or the heading\'s slug as GitHub makes it), or "#page=N" for a PDF; absent when the document has no url.',
      documentId: 'The document the passage belongs to.',
    },
  }),
  ChatResponse: fromValibot(chatResponseSchema, {
    properties: {
      response:
        'The reply: built from the passages of the trained text, cited as [n]; or, when they do not answer, a reply saying so with questions they do answer.',
      thought: 'What was searched, how many passages matched, which were used; present only when available.',
      usedExternal: 'Whether the external model helped with this reply.',
      sources: 'The passages the reply used, in the order of its [n] citations; empty when it used none.',
      replyId: 'Names this reply for POST /api/feedback; absent with QUESTION_LOG=off.',
    },
  }),
  TrainRequest: fromValibot(trainRequestSchema, {
    properties: {
      text: 'At most 1 MB of UTF-8; more is a 413. Not only whitespace.',
      format:
        'How the text is written: plain text (manuals, FAQs, a sentence a line), Markdown, HTML, a dialogue ' +
        '("User:"/"Assistant:" or "Q:"/"A:" turns; one without turns is a 400), or Vim help (`vimhelp`: Vim\'s ' +
        'manuals; plain text ending in the `vim:...:ft=help` modeline is read as it too). It is read by its structure: ' +
        'sections under headings, paragraphs, list items, code, table rows.',
      name: 'A file name the replies cite the text by (e.g. "docs/install.md").',
      documentId:
        "The document's identity (1-200 printable characters, no control characters): a file's path, a URL. Default: for plain text, `text-` and the first 16 hex digits of its SHA-256.",
      url: 'Where a citation of the document links (http or https only; else a 400).',
      sha256:
        'SHA-256 of the bytes sent (default: computed); for parts, of the whole file, the same on every part.',
      part: 'This part (1-based) of a file sent in parts (with parts, documentId and sha256).',
      parts: 'How many parts the file is sent in.',
    },
  }),
  TrainUploadRequest: {
    type: 'object',
    required: ['file'],
    properties: {
      file: {
        type: 'string',
        contentMediaType: 'application/octet-stream',
        description:
          "A .txt, .md, .html or .pdf file (kind from the file name's extension, else its content type; another kind is a 415), " +
          "at most 4 MB. A PDF's text is extracted (one that cannot be read or holds no text is a 400); the 1 MB " +
          'text limit applies after extraction (413).',
      },
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'Cite it by this name instead of the file name.',
      },
      format: {
        enum: ['text', 'markdown', 'html', 'dialogue', 'vimhelp'],
        description:
          'Read a text file as this format instead of the one its name says (e.g. a .txt dialogue, a .txt of Vim help).',
      },
      documentId: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description:
          "The document's identity (1-200 printable characters, no control characters): a file's path, a URL. Default: a file's name; for plain text, `text-` and the first 16 hex digits of its SHA-256.",
      },
      url: {
        type: 'string',
        format: 'uri',
        description: 'Where a citation of the document links (http or https).',
      },
      sha256: {
        type: 'string',
        pattern: '^[0-9a-fA-F]{64}$',
        description:
          'SHA-256 of the bytes sent (default: computed); for parts, of the whole file, the same on every part.',
      },
    },
  },
  TrainResponse: {
    type: 'object',
    required: ['ok', 'tokens', 'vocabSize', 'documentId', 'status'],
    additionalProperties: false,
    properties: {
      ok: { const: true },
      tokens: { ...count, description: 'Tokens learnt from this text (0 when unchanged).' },
      vocabSize: count,
      documentId: { type: 'string', description: 'The document the text belongs to.' },
      status: {
        type: 'string',
        enum: ['trained', 'replaced', 'unchanged'],
        description:
          'A new document, a new version of one (the old text forgotten), or the same content again (nothing learnt).',
      },
    },
  },
  TrainPending: {
    type: 'object',
    required: ['documentId', 'status', 'part', 'parts'],
    additionalProperties: false,
    properties: {
      documentId: { type: 'string' },
      status: { const: 'pending' },
      part: { type: 'integer', minimum: 1 },
      parts: { type: 'integer', minimum: 1 },
    },
  },
  DocumentList: {
    type: 'object',
    required: ['documents'],
    additionalProperties: false,
    properties: {
      documents: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'name', 'format', 'bytes', 'sha256', 'passages', 'trainedAt'],
          additionalProperties: false,
          properties: {
            id: { type: 'string' },
            name: { type: 'string', description: 'The name citations show.' },
            format: { type: 'string', enum: ['text', 'markdown', 'html', 'pdf', 'dialogue', 'vimhelp'] },
            bytes: { ...count, description: 'Bytes sent (the file as it is, or the text).' },
            sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
            passages: { ...count, description: 'Passages it gives the index.' },
            url: { type: 'string' },
            trainedAt: { type: 'string', format: 'date-time' },
          },
        },
      },
      nextCursor: { type: 'string', description: 'Pass as cursor for the next page; absent on the last.' },
    },
  },
  DeleteDocumentResult: {
    type: 'object',
    required: ['deleted'],
    additionalProperties: false,
    properties: { deleted: { type: 'string', description: 'The id of the document forgotten.' } },
  },
  UploadRequest: {
    type: 'object',
    required: ['file'],
    properties: {
      file: {
        type: 'string',
        contentMediaType: 'image/*',
        description: 'The image (PNG, JPEG, GIF, WebP, AVIF, HEIC), at most 5 MB.',
      },
      train: {
        type: 'string',
        enum: ['true', 'false', '1', '0', 'yes', 'no'],
        description: 'true: also train the text read in the image into the model, under the name image:<id>.',
      },
    },
  },
  UploadResponse: {
    type: 'object',
    required: [
      'id',
      'url',
      'mimeType',
      'bytes',
      'width',
      'height',
      'base64',
      'base64MimeType',
      'base64Downscaled',
      'metadataStripped',
      'expiresInSeconds',
      'text',
      'textConfidence',
      'textStatus',
      'textLines',
    ],
    additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the stored bytes.' },
      url: { type: 'string', format: 'uri', description: 'GET it to have the stored image back.' },
      mimeType: imageMimeType,
      bytes: { type: 'integer', minimum: 1 },
      width: { type: 'integer', minimum: 1 },
      height: { type: 'integer', minimum: 1 },
      base64: {
        type: 'string',
        contentEncoding: 'base64',
        description: 'The stored image, or a downscaled JPEG of it when base64Downscaled.',
      },
      base64MimeType: imageMimeType,
      base64Downscaled: { type: 'boolean' },
      metadataStripped: { type: 'boolean', description: 'EXIF/XMP/IPTC metadata was found and removed.' },
      expiresInSeconds: { type: 'integer', minimum: 1 },
      text: {
        type: 'array',
        items: { type: 'string' },
        description:
          'The lines of text read in the image, in reading order (columns one after the other); empty when none.',
      },
      textConfidence: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: 'Mean confidence of the words read; 0 without text.',
      },
      textStatus: {
        type: 'string',
        enum: ['read', 'none', 'timed_out'],
        description: 'read; none (no legible text); timed_out (reading took longer than OCR_TIMEOUT_MS).',
      },
      textLines: { type: 'array', items: ref('TextLine') },
      training: {
        description: 'Present when the upload asked for train=true.',
        oneOf: [
          {
            type: 'object',
            required: ['status', 'source', 'chunk', 'tokens', 'vocabSize'],
            additionalProperties: false,
            properties: {
              status: { const: 'trained' },
              source: { type: 'string', pattern: '^image:[0-9a-f]{64}$' },
              chunk: { type: 'integer', minimum: 1 },
              tokens: count,
              vocabSize: count,
            },
          },
          {
            type: 'object',
            required: ['status'],
            additionalProperties: false,
            properties: { status: { const: 'no_text' } },
          },
        ],
      },
    },
  },
  TextLine: {
    type: 'object',
    description: 'A line of text read in an image; boxes are in pixels of the upright image.',
    required: ['text', 'confidence', 'box', 'block', 'words'],
    additionalProperties: false,
    properties: {
      text: { type: 'string' },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      box: ref('TextBox'),
      block: { type: 'integer', minimum: 0, description: 'The column or paragraph block, in reading order.' },
      words: {
        type: 'array',
        items: {
          type: 'object',
          required: ['text', 'confidence', 'box'],
          additionalProperties: false,
          properties: {
            text: { type: 'string' },
            confidence: { type: 'number', minimum: 0, maximum: 1 },
            box: ref('TextBox'),
          },
        },
      },
    },
  },
  TextBox: {
    type: 'object',
    required: ['x', 'y', 'width', 'height'],
    additionalProperties: false,
    properties: {
      x: { type: 'integer' },
      y: { type: 'integer' },
      width: { type: 'integer', minimum: 0 },
      height: { type: 'integer', minimum: 0 },
    },
  },
  HealthOk: {
    type: 'object',
    required: ['status', 'vocabSize', 'store', 'version', 'uptimeSeconds', 'externalModel'],
    additionalProperties: false,
    properties: {
      status: { const: 'ok' },
      vocabSize: count,
      store: { type: 'string', enum: ['embedded', 'upstash'] },
      version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
      uptimeSeconds: count,
      externalModel: { type: 'boolean', description: 'Whether an external model is configured.' },
      starterGuide: {
        type: 'string',
        enum: ['present', 'left', 'off'],
        description:
          'The starter guide (the document `starter-guide`): present until the first document of your own is trained, then left; reset-model brings it back; off with STARTER_TEXT=off.',
      },
      howToTeach: {
        type: 'string',
        description: 'Only for the owner (X-Owner-Email with its proof): how to teach the service.',
      },
    },
  },
  HealthDegraded: {
    type: 'object',
    required: ['status', 'vocabSize', 'store', 'version', 'uptimeSeconds', 'externalModel', 'error', 'code'],
    additionalProperties: false,
    properties: {
      status: { const: 'degraded' },
      vocabSize: { type: 'null' },
      store: {
        type: 'string',
        enum: ['embedded', 'upstash', 'none'],
        description: '`none` on a Vercel deployment without Upstash/KV credentials.',
      },
      version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
      uptimeSeconds: count,
      externalModel: { type: 'boolean' },
      error: { type: 'string' },
      code: { type: 'string', enum: ['store_unavailable', 'store_unconfigured'] },
    },
  },
  AdminStats: {
    type: 'object',
    required: ['sessions', 'messages', 'vocabSize', 'corpus', 'store'],
    properties: {
      sessions: {
        type: 'object',
        required: ['active', 'total'],
        properties: {
          active: { ...count, description: 'Sessions whose allowance window is still open.' },
          total: { ...count, description: 'Sessions ever started.' },
        },
      },
      messages: { ...count, description: 'Variant A messages answered.' },
      vocabSize: count,
      corpus: {
        type: 'object',
        required: ['chunks', 'snapshotChunks', 'tokens', 'characters'],
        properties: {
          chunks: { ...count, description: 'Texts trained on.' },
          snapshotChunks: { ...count, description: 'Texts covered by the stored snapshot of the counts.' },
          tokens: count,
          characters: count,
        },
      },
      store: { type: 'string', enum: ['embedded', 'upstash'] },
    },
  },
  ResetModelResult: {
    type: 'object',
    required: ['ok', 'vocabSize'],
    properties: { ok: { const: true }, vocabSize: { const: 0 } },
  },
  PreviewList: {
    type: 'object',
    required: ['namespace', 'corpus', 'previews'],
    properties: {
      namespace: {
        type: 'string',
        description:
          "This deployment's STORE_NAMESPACE: empty for production, preview:<branch> on a preview.",
      },
      corpus: {
        type: 'string',
        enum: ['production', 'own'],
        description:
          "PREVIEW_CORPUS: whether this deployment's model reads production's corpus under its own.",
      },
      previews: {
        type: 'array',
        items: {
          type: 'object',
          required: ['namespace', 'keys', 'bytes'],
          properties: {
            namespace: { type: 'string', pattern: '^preview:[a-z0-9][a-z0-9._-]*$' },
            keys: count,
            bytes: { ...count, description: 'Approximate: key names and contents.' },
          },
        },
      },
    },
  },
  DeletePreviewResult: {
    type: 'object',
    required: ['ok', 'namespace', 'deletedKeys'],
    properties: {
      ok: { const: true },
      namespace: { type: 'string', pattern: '^preview:[a-z0-9][a-z0-9._-]*$' },
      deletedKeys: count,
    },
  },
  DeleteSessionResult: {
    type: 'object',
    required: ['ok', 'sessionId'],
    properties: {
      ok: { const: true },
      sessionId: { type: 'string' },
      address: { type: 'string', description: 'The client whose default session was deleted.' },
      user: { type: 'string', description: 'The user whose default session was deleted.' },
    },
  },

  FeedbackRequest: fromValibot(feedbackRequestSchema, {
    properties: {
      replyId: 'The replyId the reply carried (/api/v1: the completion id).',
      comment: "What was wrong, in the visitor's words (at most 1,000 characters).",
    },
  }),
  FeedbackResponse: fromValibot(feedbackResponseSchema),
  SuggestionsResponse: fromValibot(suggestionsResponseSchema, {
    properties: { questions: 'Questions the documents answer, phrased from their section headings.' },
  }),
  QuestionsResponse: fromValibot(questionsResponseSchema, {
    properties: {
      logging: 'False with QUESTION_LOG=off: nothing is logged and the lists are empty.',
      questions: 'One entry per group of similar questions; its question, reply and sources are the latest.',
      perDay: 'Answered and unanswered replies per UTC day, oldest first.',
      howToTeach: 'For the owner: how to teach the service what it could not answer.',
    },
  }),
  VariantBChatRequest: fromValibot(variantBRequestSchema, {
    properties: {
      message: 'Must be present and non-empty.',
      history: 'Previous messages, oldest first.',
      maxTokens:
        'This service’s extension: the longest reply in tokens, counted as `tokens` counts them; a longer reply is cut after its last whole word that fits and ends with "…".',
      stream:
        'true: the reply as server-sent events (as Accept: text/event-stream asks); false: JSON whatever Accept says.',
    },
  }),
  VariantBChatResponse: fromValibot(variantBResponseSchema, {
    properties: {
      tokens: 'The tokens of `response`: words and punctuation marks, each one (at most maxTokens).',
      sources: 'The passages the reply used (www: the article); empty when it used none.',
      replyId: 'Names this reply for POST /api/feedback; absent with QUESTION_LOG=off.',
      source: 'The encyclopedia article the answer is grounded in (mode www only).',
    },
  }),
  VariantBHealth: fromValibot(variantBHealthSchema),
  VariantBHealthDegraded: fromValibot(variantBHealthDegradedSchema),
  OpenApiDocument: {
    type: 'object',
    required: ['openapi', 'info', 'paths', 'components'],
    properties: { openapi: { const: '3.1.0' } },
  },
};
