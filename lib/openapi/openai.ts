import { openAIModels } from '../openai/models.js';
import {
  chatCompletionChunkSchema,
  chatCompletionRequestSchema,
  chatCompletionSchema,
  modelListSchema,
  openAIErrorSchema,
} from '../openai/schema.js';
import { fromValibot, ref } from './from-valibot.js';
import { allowanceHeaders, header, headers, jsonBody } from './responses.js';
import type { JsonSchema, PathItem, Response } from './types.js';

const modelNames = Object.keys(openAIModels);

/** One server-sent event per `data:` line pair, as OpenAI streams them; an error ends without [DONE]. */
export const openAIEventStreamPattern = '^(data: \\{[^\\n]*\\}\\n\\n)+(data: \\[DONE\\]\\n\\n)?$';

export const openAISchemas: Record<string, JsonSchema> = {
  ChatCompletionRequest: fromValibot(chatCompletionRequestSchema, {
    description:
      'OpenAI Chat Completions. Other fields (top_p, stop, seed, penalties ...) are accepted and ignored. ' +
      'System and developer messages are accepted; the local model does not follow instructions. ' +
      'User messages may add one image_url part: a data: URL, or the url POST /api/upload returned (looked up by its id, never fetched).',
    properties: {
      model: `One of ${modelNames.join(', ')}; another name is a 404 model_not_found.`,
      messages:
        'At least one message: the conversation, oldest first; the last must come from the user. The history is taken from here, never from a stored session.',
      temperature: 'Values above 1 act as 1 (the model’s own distribution, as in OpenAI).',
      max_tokens: 'The longest reply in tokens (words and punctuation marks); absent or above 400: 400.',
      max_completion_tokens: 'Wins over max_tokens.',
      user: 'The message allowance is counted on a session of this user; without it, on the default one.',
    },
  }),
  ChatCompletion: fromValibot(chatCompletionSchema, {
    properties: {
      created: 'Unix seconds.',
      usage:
        'Token counts as max_tokens counts them: words and punctuation marks, each one; completion_tokens is at most max_tokens.',
      sources: 'Extension: the passages the reply used.',
    },
  }),
  ChatCompletionChunk: fromValibot(chatCompletionChunkSchema, {
    description:
      'One event of a stream (`data: <chunk>`): first the role, then content pieces, then a chunk with finish_reason ' +
      'and `sources`, then (with stream_options.include_usage) one with `usage` and no choices, then `data: [DONE]`.',
  }),
  ModelList: fromValibot(modelListSchema),
  OpenAIError: fromValibot(openAIErrorSchema, {
    description:
      "OpenAI's error shape; code is OpenAI's name where one exists (invalid_api_key, model_not_found, rate_limit_exceeded), else this service's code.",
  }),
};

const openAIError = (description: string, extra: Partial<Response> = {}): Response => ({
  description,
  content: jsonBody(ref('OpenAIError')),
  ...extra,
});

const apiKeyOrSignIn: Record<string, string[]>[] = [{}, { apiKey: [] }, { signIn: [] }];

export const openAIPaths: Record<string, PathItem> = {
  '/v1/chat/completions': {
    post: {
      operationId: 'createChatCompletion',
      tags: ['OpenAI-compatible'],
      summary: 'OpenAI Chat Completions on the local chat modes',
      description:
        'Same allowance, rate limit and sign-in as /chat. With API_KEY set, Authorization: Bearer <API_KEY> (or a valid sign-in token) is required.',
      security: apiKeyOrSignIn,
      requestBody: { required: true, content: jsonBody(ref('ChatCompletionRequest')) },
      responses: {
        200: {
          description:
            'The completion, or with "stream": true its chunks as server-sent events ending with data: [DONE].',
          headers: allowanceHeaders,
          content: {
            ...jsonBody(ref('ChatCompletion')),
            'text/event-stream': {
              schema: {
                type: 'string',
                pattern: openAIEventStreamPattern,
                description:
                  'data: <ChatCompletionChunk> events, then data: [DONE]; a failure mid-stream sends data: <OpenAIError> and ends.',
              },
            },
          },
        },
        400: openAIError('Invalid input; param names the field.'),
        401: openAIError('No or a wrong API key (invalid_api_key), or a sign-in token that does not verify.'),
        404: openAIError(
          'model_not_found: the model is not one of the local-* models; not_found: no uploaded image has the id of an image_url.',
        ),
        405: openAIError('Only POST (and OPTIONS).', { headers: { Allow: header('Allow') } }),
        413: openAIError('The body is too large.'),
        415: openAIError('The body is not JSON.'),
        429: openAIError(
          'rate_limit_exceeded (type requests, with Retry-After) or session_limit (type insufficient_quota).',
          { headers: { 'Retry-After': { ...headers['Retry-After']!, required: false } } },
        ),
        500: openAIError('The model could not produce an answer.'),
        503: openAIError('The store or the identity provider cannot be reached.'),
      },
    },
  },
  '/v1/models': {
    get: {
      operationId: 'listModels',
      tags: ['OpenAI-compatible'],
      summary: 'The chat modes as models: local-instant, local-expert, local-apex',
      security: apiKeyOrSignIn,
      responses: {
        200: { description: 'The models.', content: jsonBody(ref('ModelList')) },
        401: openAIError('No or a wrong API key.'),
        405: openAIError('Only GET (and OPTIONS).', { headers: { Allow: header('Allow') } }),
      },
    },
  },
};
