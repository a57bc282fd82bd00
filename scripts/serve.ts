import './allocator.js';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { ConfigError, getConfig, upstashCredentials } from '../lib/config/index.js';
import { answerClientError, createLocalApp, refuseConnect } from '../lib/local-server/index.js';
import { defaultServices, ensureDataDir, isStoreUnconfigured, type Services } from '../lib/services/index.js';
import { StoreStartupError } from '../lib/store/index.js';

/** `npm start`: the api/ functions and public/ on http://localhost:PORT, as Vercel routes them. */
async function main(): Promise<void> {
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  if (nodeMajor !== 24) {
    console.warn(
      `Warning: running on Node ${process.versions.node}, but Vercel runs Node 24; \`npm start\` uses the Node 24 that \`npm ci\` installs in node_modules/.bin.`,
    );
  }
  let config: ReturnType<typeof getConfig>;
  let services: Services;
  try {
    config = getConfig();
    if (!upstashCredentials(config)) ensureDataDir(config.DATA_DIR);
    services = defaultServices();
  } catch (error) {
    // A bad variable, an unusable DATA_DIR, a damaged store file or VERCEL set without a store:
    // one line saying what to do, and no start on an empty store.
    if (error instanceof ConfigError || error instanceof StoreStartupError || isStoreUnconfigured(error)) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const root = resolve(import.meta.dirname, '..');
  const app = await createLocalApp({ apiDir: resolve(root, 'api'), publicDir: resolve(root, 'public') });
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: '0.0.0.0' }, (info) => {
    const where =
      services.store.kind === 'embedded' ? `embedded store in ${resolve(config.DATA_DIR)}` : 'Upstash Redis';
    console.log(`Listening on http://localhost:${info.port} (${where})`);
  });
  server.on('connect', (_request, socket) => refuseConnect(socket));
  server.on('clientError', answerClientError);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    server.close(async () => {
      await services.store.close();
      process.exit(0);
    });
    if ('closeAllConnections' in server) server.closeAllConnections();
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();
