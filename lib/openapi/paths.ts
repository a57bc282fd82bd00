import { questionsQuerySchema } from '../questions/schema.js';
import { sessionIdSchema } from '../sessions/schema.js';
import { documentIdSchema, idempotencyKeySchema } from '../training/schema.js';
import { imageIdSchema } from '../upload/schema.js';
import { fromValibot, queryParameters, ref } from './from-valibot.js';
import { allowanceHeaders, header, jsonBody } from './responses.js';
import type { JsonSchema, Operation, PathItem, Response } from './types.js';

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

const errorResponses = {
  400: responseRef('BadRequest'),
  401: responseRef('Unauthorized'),
  403: responseRef('Forbidden'),
  404: responseRef('NotFound'),
  409: responseRef('Conflict'),
  413: responseRef('PayloadTooLarge'),
  415: responseRef('UnsupportedMediaType'),
  422: responseRef('DocumentRefused'),
  429: responseRef('TooManyRequests'),
  500: responseRef('InferenceFailed'),
  503: responseRef('ServiceUnavailable'),
} as const;

type ErrorStatus = keyof typeof errorResponses;

/** The shared error responses of `statuses`, keyed by status as OpenAPI wants them. */
function errors(...statuses: ErrorStatus[]): Operation['responses'] {
  return Object.fromEntries(statuses.map((status) => [String(status), errorResponses[status]]));
}

const ok = (description: string, schema: JsonSchema, extra: Partial<Response> = {}): Response => ({
  description,
  content: jsonBody(schema),
  ...extra,
});

const owner = [{ ownerEmail: [], ownerProof: [] }];

/** Our chat streams: delta events, then one done (or error) event. */
const replyEvents = (done: string) => ({
  'text/event-stream': {
    schema: {
      type: 'string',
      pattern: '^(event: delta\\ndata: \\{[^\\n]*\\}\\n\\n)*event: (done|error)\\ndata: \\{[^\\n]*\\}\\n\\n$',
      description: `With Accept: text/event-stream or "stream": true: event: delta {"text"} pieces, then event: done with the ${done}, or event: error { error, code } when it fails mid-stream.`,
    } satisfies JsonSchema,
  },
});

const adminErrors = { ...errors(401, 403), 429: responseRef('RateLimited'), ...errors(503) };

export const paths: Record<string, PathItem> = {
  '/chat': {
    post: {
      operationId: 'chat',
      tags: ['Variant A'],
      summary: 'Chat with the model',
      description:
        'Counts one message against the session allowance. A valid sign-in token (Bearer) raises the allowance; a token that does not verify is a 401.',
      security: [{}, { signIn: [] }],
      requestBody: { required: true, content: jsonBody(ref('ChatRequest')) },
      responses: {
        200: ok('The reply, or its stream.', ref('ChatResponse'), {
          content: { ...jsonBody(ref('ChatResponse')), ...replyEvents('ChatResponse') },
          headers: allowanceHeaders,
        }),
        ...errors(400, 401, 404, 413, 415, 429, 500, 503),
      },
    },
  },
  '/train': {
    post: {
      operationId: 'train',
      tags: ['Variant A'],
      summary: 'Train the n-gram model on text or a document',
      description:
        'A JSON text (with its format and a name), or a multipart form with one file (.txt, .md, .html, .pdf). ' +
        "Every text belongs to a document: its `documentId` (default: a file's name; plain text's `text-` + the first 16 hex " +
        'digits of its SHA-256). The same id with the same content hash is `unchanged` and learns nothing; with new content ' +
        'it is `replaced`: the old text is forgotten exactly, on every instance, before the response. A file larger than one ' +
        "request is sent as parts (`part`, `parts`, the whole file's `sha256`): 202 until the last, then all go live together. " +
        "The first document of the owner's own sends the starter guide away. " +
        'Rate-limited per client address like chat, except for the owner (X-Owner-Email with its proof; a failed proof is a 403). ' +
        'With TRAIN_ACCESS=owner only the owner may train (403 otherwise). All or nothing: a train that fails leaves no trace. ' +
        'For plain text without a documentId, an Idempotency-Key makes a retry (within 24 h) train nothing and answer what the first request did.',
      parameters: [
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A key of your choosing (a UUID) that makes retrying this train safe; 1-128 visible ASCII characters.',
          schema: fromValibot(idempotencyKeySchema),
        },
      ],
      requestBody: {
        required: true,
        content: {
          ...jsonBody(ref('TrainRequest')),
          'multipart/form-data': { schema: ref('TrainUploadRequest') },
        },
      },
      responses: {
        200: ok('The document was trained, replaced, or was unchanged.', ref('TrainResponse'), {
          headers: { 'Idempotent-Replayed': header('Idempotent-Replayed') },
        }),
        202: ok('A part was kept; the document goes live when its last part arrives.', ref('TrainPending')),
        ...errors(400, 403, 409, 413, 415, 422),
        429: responseRef('RateLimited'),
        ...errors(503),
      },
    },
  },
  '/upload': {
    post: {
      operationId: 'uploadImage',
      tags: ['Variant A'],
      summary: 'Upload an image for vision analysis',
      description:
        'The type is decided from the bytes (a truncated or corrupt image is a 400); metadata is stripped; its text is read (503 recognizer_busy with Retry-After when too many images wait) and returned, and trained into the model with train=true. Chat can then name the image by its id (imageId). ' +
        'Rate-limited per client address like chat; an image of more than 50 megapixels is a 413, refused from its header before decoding. ' +
        'On Vercel a request body is capped at 4.5 MB, so a deployment refuses uploads over about 4.4 MB.',
      requestBody: { required: true, content: { 'multipart/form-data': { schema: ref('UploadRequest') } } },
      responses: {
        200: ok('The stored image: a URL to fetch it, its base64 and its text.', ref('UploadResponse')),
        ...errors(400, 413, 415),
        429: responseRef('RateLimited'),
        ...errors(503),
      },
    },
    get: {
      operationId: 'getUploadedImage',
      tags: ['Variant A'],
      summary: 'The bytes of an uploaded image',
      parameters: [
        {
          name: 'id',
          in: 'query',
          required: true,
          description: 'The id returned by the upload.',
          schema: fromValibot(imageIdSchema),
        },
      ],
      responses: {
        200: {
          description: 'The image, with a long immutable Cache-Control (the id is the hash of the bytes).',
          content: { 'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } } },
        },
        ...errors(400, 404, 503),
      },
    },
  },
  '/health': {
    get: {
      operationId: 'health',
      tags: ['Variant A'],
      summary: 'Status and vocabulary size',
      responses: {
        200: ok('The service and its store work.', ref('HealthOk')),
        503: ok(
          'The store cannot be reached, or (on Vercel) no Upstash/KV credentials are set.',
          ref('HealthDegraded'),
        ),
      },
    },
  },
  '/feedback': {
    post: {
      operationId: 'feedback',
      tags: ['Feedback'],
      summary: "A visitor's thumbs up or down on a reply",
      description:
        'By the replyId a reply carried. A second rating of the same reply replaces the first. Counted against the per-address rate limit as chat is. With QUESTION_LOG=off: 404 feedback_off.',
      requestBody: { required: true, content: jsonBody(ref('FeedbackRequest')) },
      responses: {
        200: ok('Recorded.', ref('FeedbackResponse')),
        400: responseRef('BadRequest'),
        404: responseRef('NotFound'),
        413: responseRef('PayloadTooLarge'),
        415: responseRef('UnsupportedMediaType'),
        429: responseRef('RateLimited'),
        503: responseRef('ServiceUnavailable'),
      },
    },
  },
  '/suggestions': {
    get: {
      operationId: 'suggestions',
      tags: ['Feedback'],
      summary: 'Up to five questions the documents answer',
      description:
        'Made from the headings of the largest sections, each checked to be answered; public and cacheable (Cache-Control: public, max-age=300).',
      responses: {
        200: ok('The questions.', ref('SuggestionsResponse')),
        503: responseRef('ServiceUnavailable'),
      },
    },
  },
  '/admin/questions': {
    get: {
      operationId: 'adminQuestions',
      tags: ['Admin'],
      summary: 'What visitors asked: unanswered, disliked or most asked',
      description:
        'Similar questions (the same words once case, punctuation and stop words are set aside) are one entry, the most asked first; disliked: the most thumbs down first. perDay counts answered and unanswered replies per UTC day.',
      security: owner,
      parameters: queryParameters(questionsQuerySchema, {
        kind: 'unanswered (confidence none or nearest), disliked (a thumbs down) or top; default top.',
        days: 'The last N days (1-365, at most QUESTION_LOG_DAYS); default QUESTION_LOG_DAYS.',
      }),
      responses: {
        200: ok('The questions.', ref('QuestionsResponse')),
        400: responseRef('BadRequest'),
        ...adminErrors,
      },
    },
  },
  '/admin/stats': {
    get: {
      operationId: 'adminStats',
      tags: ['Admin'],
      summary: 'Counters of the model, the store and the sessions',
      security: owner,
      responses: { 200: ok('The counters.', ref('AdminStats')), ...adminErrors },
    },
  },
  '/admin/reset-model': {
    post: {
      operationId: 'adminResetModel',
      tags: ['Admin'],
      summary: 'Forget everything the model learnt',
      security: owner,
      responses: { 200: ok('The model is empty.', ref('ResetModelResult')), ...adminErrors },
    },
  },
  '/admin/session': {
    delete: {
      operationId: 'adminDeleteSession',
      tags: ['Admin'],
      summary: 'Delete a session: its history and its message count',
      security: owner,
      parameters: [
        {
          name: 'id',
          in: 'query',
          required: true,
          description:
            "The sessionId; `default` for a client's default session, named by `address` or `user`.",
          schema: fromValibot(sessionIdSchema),
        },
        {
          name: 'address',
          in: 'query',
          required: false,
          description:
            'With id=default: the client address (as the rate limit sees it) whose default session to delete.',
          schema: { type: 'string' },
        },
        {
          name: 'user',
          in: 'query',
          required: false,
          description: 'With id=default: the verified user (ID token `sub`) whose default session to delete.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      ],
      responses: {
        200: ok('The session is gone.', ref('DeleteSessionResult')),
        ...errors(400, 401, 403, 404, 503),
      },
    },
  },
  '/admin/previews': {
    get: {
      operationId: 'adminListPreviews',
      tags: ['Admin'],
      summary: "This deployment's namespace and every preview namespace with its size",
      security: owner,
      responses: { 200: ok('The preview namespaces, largest first.', ref('PreviewList')), ...adminErrors },
    },
    delete: {
      operationId: 'adminDeletePreview',
      tags: ['Admin'],
      summary: "Delete a preview's data: every key of its namespace",
      security: owner,
      parameters: [
        {
          name: 'branch',
          in: 'query',
          required: false,
          description: 'The branch whose previews to clean up (named as previews name it: preview:<branch>).',
          schema: { type: 'string', minLength: 1 },
        },
        {
          name: 'namespace',
          in: 'query',
          required: false,
          description: 'Instead of `branch`: the namespace itself, `preview:<branch>`.',
          schema: { type: 'string', pattern: '^preview:[a-z0-9][a-z0-9._-]*$' },
        },
      ],
      responses: {
        200: ok('The namespace is empty.', ref('DeletePreviewResult')),
        ...errors(400, 401, 403, 404, 503),
      },
    },
  },
  '/admin/documents': {
    get: {
      operationId: 'adminListDocuments',
      tags: ['Admin'],
      summary: 'The documents the service was taught, by id, a page at a time',
      security: owner,
      parameters: [
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'Documents per page, 1-1000 (default 100).',
          schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
        },
        {
          name: 'cursor',
          in: 'query',
          required: false,
          description: 'The nextCursor of the page before.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        200: ok('A page of the document table.', ref('DocumentList')),
        ...errors(400),
        ...adminErrors,
      },
    },
    delete: {
      operationId: 'adminDeleteDocument',
      tags: ['Admin'],
      summary: 'Forget a document exactly',
      description:
        'The passage index and the n-gram model become what they would be had the document never been trained, on this ' +
        'instance before the answer and on every other at its next request. A training of the same id runs first (never interleaved).',
      security: owner,
      parameters: [
        {
          name: 'id',
          in: 'query',
          required: true,
          description: 'The document id.',
          schema: fromValibot(documentIdSchema),
        },
      ],
      responses: {
        200: ok('The document is forgotten.', ref('DeleteDocumentResult')),
        ...errors(400, 404, 409),
        ...adminErrors,
      },
    },
  },
  '/admin/export': {
    get: {
      operationId: 'adminExport',
      tags: ['Admin'],
      summary: 'The training corpus as plain text',
      security: owner,
      responses: {
        200: {
          description: 'Every trained text.',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
        ...adminErrors,
      },
    },
  },
  '/api/chat': {
    description: 'Any method other than POST (and OPTIONS) is a 405 with Allow.',
    post: {
      operationId: 'variantBChat',
      tags: ['Variant B'],
      summary: 'Chat with a reasoning mode and optional history',
      requestBody: { required: true, content: jsonBody(ref('VariantBChatRequest')) },
      responses: {
        200: ok(
          'The reply, or its stream; www answers name the article they used.',
          ref('VariantBChatResponse'),
          {
            content: { ...jsonBody(ref('VariantBChatResponse')), ...replyEvents('VariantBChatResponse') },
          },
        ),
        ...errors(400),
        405: responseRef('MethodNotAllowed'),
        ...errors(413, 415),
        429: responseRef('RateLimited'),
        ...errors(500, 503),
      },
    },
  },
  '/api/health': {
    get: {
      operationId: 'variantBHealth',
      tags: ['Variant B'],
      summary: 'Status, model and version',
      responses: {
        200: ok('The API is online.', ref('VariantBHealth')),
        503: ok(
          'The store cannot be reached, or (on Vercel) no Upstash/KV credentials are set.',
          ref('VariantBHealthDegraded'),
        ),
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'openApiDocument',
      tags: ['Meta'],
      summary: 'This document',
      responses: { 200: ok('OpenAPI 3.1.', ref('OpenApiDocument')) },
    },
  },
};
