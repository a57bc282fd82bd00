import {
  adminStatsSchema,
  deleteDocumentResultSchema,
  deletePreviewResultSchema,
  deleteSessionResultSchema,
  previewListSchema,
  resetModelResultSchema,
} from '../admin/schema.js';
import { chatRequestSchema, chatResponseSchema } from '../chat/schema.js';
import { sourceSchema } from '../citations/schema.js';
import { healthDegradedSchema, healthOkSchema } from '../health/schema.js';
import {
  documentRefusedErrorSchema,
  errorBodySchema,
  payloadTooLargeErrorSchema,
  rateLimitedErrorSchema,
  serviceUnavailableErrorSchema,
  sessionLimitErrorSchema,
  validationErrorSchema,
} from '../http/schema.js';
import {
  feedbackRequestSchema,
  feedbackResponseSchema,
  questionsResponseSchema,
} from '../questions/schema.js';
import { suggestionsResponseSchema } from '../suggestions/schema.js';
import {
  documentListSchema,
  trainFileFieldsSchema,
  trainPendingSchema,
  trainRequestSchema,
  trainResponseSchema,
} from '../training/schema.js';
import { uploadedImageSchema, uploadFieldsSchema } from '../upload/schema.js';
import {
  variantBHealthDegradedSchema,
  variantBHealthSchema,
  variantBRequestSchema,
  variantBResponseSchema,
} from '../variant-b/schema.js';
import { fromValibot } from './from-valibot.js';
import { openApiDocumentSchema } from './schema.js';
import type { JsonSchema } from './types.js';

const retryAfter = 'Seconds to wait, as in Retry-After.';
const documentIdNote =
  "The document's identity (1-200 printable characters, no control characters): a file's path, a URL. Default: a file's name; for plain text, `text-` and the first 16 hex digits of its SHA-256.";
const sha256Note =
  'SHA-256 of the bytes sent (default: computed); for parts, of the whole file, the same on every part.';

/**
 * The request and response bodies of Variant A, Variant B, feedback and admin, each the JSON
 * Schema of the valibot schema the code validates with or types its answer by; the words are
 * the document's own.
 */
export const schemas: Record<string, JsonSchema> = {
  ErrorBody: fromValibot(errorBodySchema, {
    description:
      'Every error: a message a person can act on, a machine code, and fields that help (limit, remaining, retryAfter ...).',
  }),
  ValidationError: fromValibot(validationErrorSchema, {
    properties: { field: 'Dot path of the first invalid field, null for the body.' },
  }),
  PayloadTooLargeError: fromValibot(payloadTooLargeErrorSchema, {
    properties: {
      limit: 'POST /train: the bound passed, MAX_PDF_PAGES, MAX_INFLATED_BYTES or text.',
      corpusBytes: 'POST /train past MAX_CORPUS_BYTES: bytes of text the corpus holds already.',
    },
  }),
  DocumentRefusedError: fromValibot(documentRefusedErrorSchema, {
    properties: {
      limit:
        'The bound the document passed: MAX_NESTING, DOCUMENT_READ_TIMEOUT_MS, memory, page_tree (a PDF page reached twice), unreadable.',
    },
  }),
  SessionLimitError: fromValibot(sessionLimitErrorSchema),
  ServiceUnavailableError: fromValibot(serviceUnavailableErrorSchema, {
    properties: { retryAfter },
  }),
  RateLimitedError: fromValibot(rateLimitedErrorSchema, { properties: { retryAfter } }),

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
  TrainUploadRequest: fromValibot(trainFileFieldsSchema, {
    files: { file: 'application/octet-stream' },
    properties: {
      file:
        "A .txt, .md, .html or .pdf file (kind from the file name's extension, else its content type; another kind is a 415), " +
        "at most 4 MB. A PDF's text is extracted (one that cannot be read or holds no text is a 400); the 1 MB " +
        'text limit applies after extraction (413).',
      name: 'Cite it by this name instead of the file name.',
      format:
        'Read a text file as this format instead of the one its name says (e.g. a .txt dialogue, a .txt of Vim help).',
      documentId: documentIdNote,
      url: 'Where a citation of the document links (http or https).',
      sha256: sha256Note,
    },
  }),
  TrainResponse: fromValibot(trainResponseSchema, {
    properties: {
      tokens: 'Tokens learnt from this text (0 when unchanged).',
      documentId: 'The document the text belongs to.',
      status:
        'A new document, a new version of one (the old text forgotten), or the same content again (nothing learnt).',
    },
  }),
  TrainPending: fromValibot(trainPendingSchema),
  DocumentList: fromValibot(documentListSchema, {
    properties: {
      'documents.name': 'The name citations show.',
      'documents.bytes': 'Bytes sent (the file as it is, or the text).',
      'documents.passages': 'Passages it gives the index.',
      nextCursor: 'Pass as cursor for the next page; absent on the last.',
    },
  }),
  DeleteDocumentResult: fromValibot(deleteDocumentResultSchema, {
    properties: { deleted: 'The id of the document forgotten.' },
  }),
  UploadRequest: fromValibot(uploadFieldsSchema, {
    files: { file: 'image/*' },
    properties: {
      file: 'The image (PNG, JPEG, GIF, WebP, AVIF, HEIC), at most 5 MB.',
      train:
        'true (or 1, yes; any case): also train the text read in the image into the model, under the name image:<id>.',
    },
  }),
  UploadResponse: fromValibot(uploadedImageSchema, {
    properties: {
      id: 'SHA-256 of the stored bytes.',
      url: 'GET it to have the stored image back.',
      base64: 'The stored image, or a downscaled JPEG of it when base64Downscaled.',
      metadataStripped: 'EXIF/XMP/IPTC metadata was found and removed.',
      text: 'The lines of text read in the image, in reading order (columns one after the other); empty when none.',
      textConfidence: 'Mean confidence of the words read; 0 without text.',
      textStatus: 'read; none (no legible text); timed_out (reading took longer than OCR_TIMEOUT_MS).',
      textLines: 'Each line read, with its words; boxes are in pixels of the upright image.',
      'textLines.block': 'The column or paragraph block, in reading order.',
      training: 'Present when the upload asked for train=true.',
    },
  }),
  HealthOk: fromValibot(healthOkSchema, {
    properties: {
      externalModel: 'Whether an external model is configured.',
      starterGuide:
        'The starter guide (the document `starter-guide`): present until the first document of your own is trained, then left; reset-model brings it back; off with STARTER_TEXT=off.',
      howToTeach: 'Only for the owner (X-Owner-Email with its proof): how to teach the service.',
    },
  }),
  HealthDegraded: fromValibot(healthDegradedSchema, {
    properties: { store: '`none` on a Vercel deployment without Upstash/KV credentials.' },
  }),
  AdminStats: fromValibot(adminStatsSchema, {
    properties: {
      'sessions.active': 'Sessions whose allowance window is still open.',
      'sessions.total': 'Sessions ever started.',
      messages: 'Variant A messages answered.',
      'corpus.chunks': 'Texts trained on.',
      'corpus.snapshotChunks': 'Texts covered by the stored snapshot of the counts.',
    },
  }),
  ResetModelResult: fromValibot(resetModelResultSchema),
  PreviewList: fromValibot(previewListSchema, {
    properties: {
      namespace: "This deployment's STORE_NAMESPACE: empty for production, preview:<branch> on a preview.",
      corpus: "PREVIEW_CORPUS: whether this deployment's model reads production's corpus under its own.",
      'previews.bytes': 'Approximate: key names and contents.',
    },
  }),
  DeletePreviewResult: fromValibot(deletePreviewResultSchema),
  DeleteSessionResult: fromValibot(deleteSessionResultSchema, {
    properties: {
      address: 'The client whose default session was deleted.',
      user: 'The user whose default session was deleted.',
    },
  }),

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
  OpenApiDocument: fromValibot(openApiDocumentSchema),
};
