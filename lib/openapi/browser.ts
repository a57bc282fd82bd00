import { uiChatRequestSchema } from '../ui-chat/schema.js';
import { fromValibot, ref } from './from-valibot.js';
import { allowanceHeaders, jsonBody } from './responses.js';
import type { JsonSchema, PathItem } from './types.js';

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** The schemas of the browser ways in: the AI SDK's UI messages. */
export const browserSchemas: Record<string, JsonSchema> = {
  UIChatRequest: fromValibot(uiChatRequestSchema, {
    description:
      'What DefaultChatTransport posts: the conversation id, every message so far (the last one the user’s, with text), the trigger and the message id; a transport’s `body` may add modelMode, temperature and maxTokens. ' +
      'A message is { id, role, parts }: text parts ({ type: "text", text }) carry the words; the last user message may carry one image as a file part ({ type: "file", mediaType: "image/…", url: "data:…" }); other parts (sources, steps, reasoning) are accepted and passed over.',
    properties: {
      id: 'The conversation. Its allowance is counted like a session’s, for this client alone (its sign-in, else its address).',
      messages:
        'The whole conversation, oldest first: the last message is answered, the earlier ones are its history. At least one.',
      modelMode: 'Default expert.',
    },
  }),
};

/** /ui/chat (the AI SDK's UI message stream) and /widget.js (served from public/, at the root). */
export const browserPaths: Record<string, PathItem> = {
  '/ui/chat': {
    description: 'Any method other than POST (and OPTIONS) is a 405 with Allow.',
    post: {
      operationId: 'uiChat',
      tags: ['AI SDK'],
      summary: 'Chat for useChat (AI SDK 7): the UI message stream',
      description:
        'Answers the last user message with the AI SDK’s UI message stream. A body that is not a chat request is a 400; limits, sign-in and store failures answer with their JSON error before the stream starts.',
      security: [{}, { signIn: [] }],
      requestBody: { required: true, content: jsonBody(ref('UIChatRequest')) },
      responses: {
        200: {
          description:
            'The reply as a UI message stream (header x-vercel-ai-ui-message-stream: v1), with the session allowance headers.',
          headers: allowanceHeaders,
          content: {
            'text/event-stream': {
              schema: {
                type: 'string',
                pattern: '^(data: \\{[^\\n]*\\}\\n\\n)+data: \\[DONE\\]\\n\\n$',
                description:
                  'data: {"type":"start","messageId"}, {"type":"text-start","id"}, {"type":"text-delta","id","delta"} per piece, {"type":"text-end","id","citations"}, one {"type":"source-document","sourceId","mediaType","title","filename"?,"providerMetadata":{"ngram":{"n","text","score","ref"}}} per source (title: document and section, or chunk and line), {"type":"finish","finishReason","messageMetadata":{"thought","usedExternal","vocabSize"}}, then data: [DONE]. A failure mid-stream sends {"type":"error","errorText"} before [DONE].',
              },
            },
          },
        },
        400: responseRef('BadRequest'),
        401: responseRef('Unauthorized'),
        405: responseRef('MethodNotAllowed'),
        413: responseRef('PayloadTooLarge'),
        415: responseRef('UnsupportedMediaType'),
        429: responseRef('TooManyRequests'),
        503: responseRef('ServiceUnavailable'),
      },
    },
  },
  '/widget.js': {
    description:
      'A static file of public/, served at the root of the host (not under /api): GET and HEAD only, no preflight.',
    servers: [{ url: '/', description: 'The host root, where public/ is served.' }],
    get: {
      operationId: 'widgetScript',
      tags: ['Browser'],
      summary: 'The one-tag chat widget',
      description:
        'Add <script src="https://HOST/widget.js" defer></script> to a page of any origin: a launcher button opens an accessible chat panel (Shadow DOM) that talks to POST /api/ui/chat on the host the script came from. Options as data- attributes of the tag: data-title, data-greeting, data-accent, data-position (right or left), data-mode (instant, expert, apex).',
      responses: {
        200: {
          description:
            'The script (JavaScript, served with CORS and Cross-Origin-Resource-Policy: cross-origin).',
          content: { 'text/javascript': { schema: { type: 'string', minLength: 1 } } },
        },
      },
    },
  },
};
