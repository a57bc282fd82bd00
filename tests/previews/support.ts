import {
  adminExportHandlers,
  adminPreviewsHandlers,
  adminResetModelHandlers,
  adminSessionHandlers,
  adminStatsHandlers,
} from '../../lib/admin/index.js';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { parseConfig } from '../../lib/config/index.js';
import { healthHandlers } from '../../lib/health/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { chatCompletionsHandlers } from '../../lib/openai/index.js';
import { createServices, type Services } from '../../lib/services/index.js';
import { createEmbeddedStore, type Store } from '../../lib/store/index.js';
import { trainHandlers } from '../../lib/training/handlers.js';
import { uploadHandlers } from '../../lib/upload/handlers.js';
import { variantBChatHandlers } from '../../lib/variant-b/handlers.js';
import { redisDatabase } from '../support/redis.js';

export const OWNER = 'owner@example.com';
export const ADMIN_TOKEN = 'previews-admin-token-0123456789';
export const ownerHeaders = { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ADMIN_TOKEN}` };

/** One database standing for the production and preview deployments that share it. */
export interface SharedStore {
  /** The whole store, as the operator's tools see it. */
  root: Store;
  /** A deployment on it with these variables (credentials of the database already set). */
  deployment(env: Record<string, string>): Services;
}

/** The embedded store (one in-memory database) and the real Redis behind the REST bridge. */
export const backends: [string, () => Promise<SharedStore>][] = [
  [
    'the embedded store',
    async () => {
      const root = createEmbeddedStore();
      return { root, deployment: (env) => deploy(env, root) };
    },
  ],
  [
    'Redis through the Upstash REST bridge',
    async () => {
      const database = await redisDatabase();
      const credentials = { UPSTASH_REDIS_REST_URL: database.url, UPSTASH_REDIS_REST_TOKEN: database.token };
      return {
        root: database.store,
        // No limiter override: the service makes its own @upstash/ratelimit client, prefix and all.
        deployment: (env) => deploy({ ...credentials, ...env }, database.store),
      };
    },
  ],
];

function deploy(env: Record<string, string>, root: Store): Services {
  return createServices(
    parseConfig({ STARTER_TEXT: 'off', OWNER_EMAIL: OWNER, ADMIN_TOKEN, LOG_LEVEL: 'silent', ...env }),
    { store: root, random: seeded(7) },
  );
}

/** Production's variables: none of the preview ones. */
export const production: Record<string, string> = {};
/** A Vercel preview of `branch`, as Vercel sets its variables. */
export function preview(branch: string, extra: Record<string, string> = {}): Record<string, string> {
  return { VERCEL_ENV: 'preview', VERCEL_GIT_COMMIT_REF: branch, ...extra };
}

/** Every endpoint of a deployment, called as Vercel calls the functions. */
export function endpoints(services: Services) {
  const of = () => services;
  return {
    chat: endpoint(chatHandlers(of)),
    train: endpoint(trainHandlers(of)),
    upload: endpoint(uploadHandlers(of)),
    health: endpoint(healthHandlers(of)),
    variantB: endpoint(variantBChatHandlers(of)),
    completions: endpoint(chatCompletionsHandlers(of)),
    stats: endpoint(adminStatsHandlers(of)),
    reset: endpoint(adminResetModelHandlers(of)),
    session: endpoint(adminSessionHandlers(of)),
    export: endpoint(adminExportHandlers(of)),
    previews: endpoint(adminPreviewsHandlers(of)),
  };
}

/** A JSON POST from one client address. */
export function post(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1/api/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-real-ip': '192.0.2.44', ...headers },
    body: JSON.stringify(body),
  });
}

export function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Request {
  return new Request(`http://127.0.0.1/api/${path}`, { method, headers });
}

/** What a deployment's training corpus holds (the owner's export). */
export async function exported(services: Services): Promise<string> {
  const response = await endpoints(services).export.fetch(get('admin/export', ownerHeaders));
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  return response.text();
}

/** What a deployment answers to one question (Variant A chat, the reply text). */
export async function ask(services: Services, message: string): Promise<string> {
  const response = await endpoints(services).chat.fetch(post('chat', { message, modelMode: 'instant' }));
  if (response.status !== 200) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { response: string }).response;
}

export async function train(services: Services, text: string): Promise<{ vocabSize: number }> {
  const response = await endpoints(services).train.fetch(post('train', { text }));
  if (response.status !== 200) throw new Error(`train answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { vocabSize: number };
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
