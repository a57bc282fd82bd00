/**
 * `npm run previews -- list|delete BRANCH`: the data previews left in the store. `list` prints
 * every preview namespace (`preview:<branch>`) with its keys and size; `delete BRANCH` deletes
 * every key of that branch's previews (a branch name, or the namespace itself). Uses the store the
 * service would: UPSTASH_REDIS_REST_URL/_TOKEN (or KV_REST_API_*) when set, else DATA_DIR.
 */
import { parseArgs } from 'node:util';
import { ConfigError, getConfig, upstashCredentials } from '../lib/config/index.js';
import { HttpError } from '../lib/http/index.js';
import { deletePreviewNamespace, listPreviewNamespaces, previewNamespaceOf } from '../lib/previews/index.js';
import { rootStoreFromConfig } from '../lib/services/index.js';
import { StoreStartupError, StoreUnavailableError } from '../lib/store/index.js';
import { formatBytes } from '../lib/train-client/index.js';

const USAGE = `usage: npm run previews -- list [--json]
       npm run previews -- delete BRANCH

  list           every preview namespace (preview:<branch>) with its keys and size
  delete BRANCH  deletes the data of BRANCH's previews (or give the namespace, preview:<branch>)
  --json         list as JSON

The store is the service's: UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (or KV_REST_API_URL
and KV_REST_API_TOKEN) when set, else the embedded store in DATA_DIR (default .data).
`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const [command, name, ...rest] = positionals;
  if (command !== 'list' && command !== 'delete') throw new UsageError('say list or delete');
  if (command === 'list' && (name !== undefined || rest.length > 0))
    throw new UsageError('list takes no names');
  if (command === 'delete' && (name === undefined || rest.length > 0))
    throw new UsageError('delete takes one branch name');

  const config = getConfig();
  const where = upstashCredentials(config) ? 'Upstash' : `the embedded store in ${config.DATA_DIR}`;
  const store = rootStoreFromConfig(config);
  try {
    if (command === 'list') {
      const previews = await listPreviewNamespaces(store);
      if (values.json) {
        process.stdout.write(`${JSON.stringify(previews, null, 2)}\n`);
        return;
      }
      if (previews.length === 0) {
        console.log(`No preview data in ${where}.`);
        return;
      }
      const width = Math.max('namespace'.length, ...previews.map((p) => p.namespace.length));
      console.log(`${'namespace'.padEnd(width)}  ${'keys'.padStart(7)}  ${'size'.padStart(9)}`);
      for (const p of previews) {
        console.log(
          `${p.namespace.padEnd(width)}  ${String(p.keys).padStart(7)}  ${formatBytes(p.bytes).padStart(9)}`,
        );
      }
      const total = previews.reduce((sum, p) => sum + p.bytes, 0);
      console.log(`${previews.length} preview namespace(s), ${formatBytes(total)} in all, in ${where}.`);
      return;
    }
    const namespace = previewNamespaceOf(name!);
    const deleted = await deletePreviewNamespace(store, namespace);
    console.log(
      deleted === 0
        ? `Nothing under ${namespace} in ${where}.`
        : `Deleted ${deleted} key(s) under ${namespace} in ${where}.`,
    );
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof HttpError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (
    error instanceof ConfigError ||
    error instanceof StoreStartupError ||
    error instanceof StoreUnavailableError
  ) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
});
