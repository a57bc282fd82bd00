import { serviceVersion } from '../services/version.js';
import { browserPaths, browserSchemas } from './browser.js';
import { schemas } from './components.js';
import { openAIPaths, openAISchemas } from './openai.js';
import { paths } from './paths.js';
import { headers, responses } from './responses.js';
import type { OpenApiDocument, PathItem } from './types.js';

export type { JsonSchema, OpenApiDocument, Operation, PathItem } from './types.js';

/** Every path of the API also answers the CORS preflight, the same way (static files do not). */
function withPreflight(path: string, item: PathItem): PathItem {
  if (item.servers) return item;
  const name = path
    .replace(/^\//, '')
    .replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string = '') => next.toUpperCase());
  return {
    ...item,
    options: {
      operationId: `preflight${name.charAt(0).toUpperCase()}${name.slice(1)}`,
      tags: ['CORS'],
      summary: 'CORS preflight',
      responses: { 204: { $ref: '#/components/responses/Preflight' } },
    },
  };
}

/** The OpenAPI 3.1 description of both variants, served at GET /api/openapi.json. */
export const openApiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'n-gram chat backend',
    version: serviceVersion,
    description:
      'Conversational AI over HTTP, in two interface variants on one base URL (https://HOST/api). ' +
      'Variant A: /chat, /train, /upload, /health and the admin endpoints. Variant B: /api/chat and /api/health. ' +
      'Browser apps: /ui/chat (the AI SDK’s useChat) and the chat widget /widget.js (at the host root). ' +
      'Every error body is { error, code, ...extra }; a method a path does not answer is a 405 with Allow; ' +
      'any origin may call the service (CORS), and OPTIONS answers 204 everywhere.',
  },
  servers: [{ url: '/api', description: 'The base URL of both variants, relative to this document.' }],
  tags: [
    { name: 'Variant A', description: 'Chat with model modes and images, training, upload, health.' },
    {
      name: 'Admin',
      description: 'Owner only: X-Owner-Email plus Authorization: Bearer <ADMIN_TOKEN or sign-in token>.',
    },
    {
      name: 'Feedback',
      description:
        "Visitors' ratings of replies, and the questions the documents answer (starter questions).",
    },
    { name: 'Variant B', description: 'Chat with reasoning modes and history, health.' },
    {
      name: 'OpenAI-compatible',
      description:
        'OpenAI Chat Completions and Models: errors in OpenAI’s shape { error: { message, type, param, code } }.',
    },
    {
      name: 'AI SDK',
      description: 'The AI SDK’s UI message stream, for useChat and DefaultChatTransport in browser apps.',
    },
    { name: 'Browser', description: 'The one-tag chat widget for any website (served at the host root).' },
    { name: 'Meta', description: 'This description.' },
    { name: 'CORS', description: 'Preflight requests.' },
  ],
  paths: Object.fromEntries(
    Object.entries({ ...paths, ...openAIPaths, ...browserPaths }).map(([path, item]) => [
      path,
      withPreflight(path, item),
    ]),
  ),
  components: {
    schemas: { ...schemas, ...openAISchemas, ...browserSchemas },
    responses,
    headers,
    securitySchemes: {
      signIn: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'An ID token from the identity provider; raises the session allowance from 20 to 50.',
      },
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        description:
          'API_KEY, required on /v1 when the server sets it (a sign-in token is accepted instead).',
      },
      ownerEmail: { type: 'apiKey', in: 'header', name: 'X-Owner-Email', description: "The owner's e-mail." },
      ownerProof: {
        type: 'http',
        scheme: 'bearer',
        description: "ADMIN_TOKEN, or the owner's verified sign-in token.",
      },
    },
  },
};
