import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createClient } from 'redis';
import { REDIS_DATABASES } from './redis-server.js';

/**
 * A small Upstash-REST-compatible server in front of a real redis-server, so the real
 * @upstash/redis and @upstash/ratelimit clients run against a real Redis in tests.
 * Wire format: POST / with a JSON command array, POST /pipeline and /multi-exec with an array of
 * them, Bearer token checked, `Upstash-Encoding: base64` encodes every string of the result.
 * Each token maps to its own Redis database, so test files do not see each other's keys.
 * Fault injection (tests only): POST /__test/abort-transactions `{ token, after }` makes every
 * /multi-exec of that database queue `after` of its commands inside MULTI and then drop the Redis
 * connection and the HTTP request, as a client dying mid-transaction does (Redis discards it),
 * until the same call with `after: null`.
 */
export interface UpstashBridge {
  url: string;
  /** Secret of POST /__test/allocate, which test processes call to get a database of their own. */
  adminSecret: string;
  /** Hands out a token bound to a freshly emptied database. */
  allocateDatabase(): Promise<string>;
  close(): Promise<void>;
}

type Client = ReturnType<typeof createClient>;
type Reply = unknown;

const LOCKING_FLAG = /^#!lua[^\n]*\n/;

export async function startUpstashBridge(redisUrl: string): Promise<UpstashBridge> {
  const clients = new Map<number, Promise<Client>>();
  const scriptShas = new Map<string, string>();
  let nextDatabase = 1;
  /** Databases whose transactions are cut off after this many queued commands. */
  const abortAfter = new Map<number, number>();
  const tokenPrefix = `bridge-${Math.random().toString(36).slice(2)}-db`;
  const adminSecret = Math.random().toString(36).slice(2);

  /**
   * The connection of a database. A connection Redis dropped (a restart in a fault test) is
   * forgotten, so the next command connects afresh, as Upstash itself would recover.
   */
  function clientFor(database: number): Promise<Client> {
    let client = clients.get(database);
    if (!client) {
      // RESP2: node-redis 6 speaks RESP3 by default, whose maps and doubles Upstash never returns.
      const created = createClient({
        url: redisUrl,
        database,
        RESP: 2,
        socket: { reconnectStrategy: false },
      });
      const forget = () => {
        if (clients.get(database) === client) clients.delete(database);
      };
      created.on('error', forget);
      created.on('end', forget);
      client = created.connect().then(
        () => created as unknown as Client,
        (error: unknown) => {
          forget();
          throw error;
        },
      );
      clients.set(database, client);
    }
    return client;
  }

  function databaseOf(request: IncomingMessage): number | undefined {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    if (!match?.[1]?.startsWith(tokenPrefix)) return undefined;
    const database = Number(match[1].slice(tokenPrefix.length));
    return Number.isInteger(database) && database > 0 && database < REDIS_DATABASES ? database : undefined;
  }

  /** Strips the `#!lua flags=...` line Redis 7.0 rejects, remembering the original sha for EVALSHA. */
  function rewrite(command: string[]): string[] {
    const name = command[0]?.toUpperCase();
    if ((name === 'EVAL' || name === 'EVAL_RO') && command[1] && LOCKING_FLAG.test(command[1])) {
      const stripped = command[1].replace(LOCKING_FLAG, '');
      scriptShas.set(sha1(command[1]), sha1(stripped));
      return [command[0]!, stripped, ...command.slice(2)];
    }
    if (
      name === 'SCRIPT' &&
      command[1]?.toUpperCase() === 'LOAD' &&
      command[2] &&
      LOCKING_FLAG.test(command[2])
    ) {
      const stripped = command[2].replace(LOCKING_FLAG, '');
      scriptShas.set(sha1(command[2]), sha1(stripped));
      return [command[0]!, command[1]!, stripped];
    }
    if ((name === 'EVALSHA' || name === 'EVALSHA_RO') && command[1]) {
      const mapped = scriptShas.get(command[1].toLowerCase());
      if (mapped) return [command[0]!, mapped, ...command.slice(2)];
    }
    return command;
  }

  async function allocateDatabase(): Promise<string> {
    const database = nextDatabase;
    nextDatabase = (nextDatabase % (REDIS_DATABASES - 1)) + 1;
    const client = await clientFor(database);
    await client.sendCommand(['FLUSHDB']);
    return `${tokenPrefix}${database}`;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    if (request.url === '/__test/allocate' && request.headers['x-bridge-secret'] === adminSecret) {
      return send(response, 200, { token: await allocateDatabase() });
    }
    if (request.url === '/__test/abort-transactions' && request.headers['x-bridge-secret'] === adminSecret) {
      const { token, after } = JSON.parse(body) as { token: string; after: number | null };
      const target = databaseOf({ headers: { authorization: `Bearer ${token}` } } as IncomingMessage);
      if (target === undefined) return send(response, 400, { error: 'unknown token' });
      if (after === null) abortAfter.delete(target);
      else abortAfter.set(target, after);
      return send(response, 200, { ok: true });
    }
    const database = databaseOf(request);
    if (database === undefined) return send(response, 401, { error: 'Unauthorized' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return send(response, 400, { error: 'ERR failed to parse command' });
    }
    const base64 = String(request.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';
    const encode = (reply: Reply) => (base64 ? encodeBase64(reply) : reply);
    const client = await clientFor(database);
    const path = (request.url ?? '/').split('?')[0];

    if (path === '/pipeline' || path === '/multi-exec') {
      if (!Array.isArray(parsed) || !parsed.every(Array.isArray)) {
        return send(response, 400, { error: 'ERR expected an array of commands' });
      }
      const commands = (parsed as unknown[][]).map((command) => rewrite(toArgs(command)));
      if (path === '/pipeline') {
        const results = [];
        for (const command of commands) {
          try {
            results.push({ result: encode(await client.sendCommand(command)) });
          } catch (error) {
            results.push({ error: (error as Error).message });
          }
        }
        return send(response, 200, results);
      }
      const cutAfter = abortAfter.get(database);
      if (cutAfter !== undefined) {
        const doomed = client.duplicate();
        await doomed.connect();
        await doomed.sendCommand(['MULTI']);
        for (const command of commands.slice(0, cutAfter)) await doomed.sendCommand(command);
        doomed.destroy();
        request.socket.destroy();
        return;
      }
      const multi = client.multi();
      for (const command of commands) multi.addCommand(command);
      try {
        const replies = (await multi.exec()) as Reply[];
        return send(
          response,
          200,
          replies.map((reply) => ({ result: encode(reply) })),
        );
      } catch (error) {
        const replies = (error as { replies?: unknown[] }).replies;
        if (!Array.isArray(replies)) return send(response, 400, { error: (error as Error).message });
        return send(
          response,
          200,
          replies.map((reply) =>
            reply instanceof Error ? { error: reply.message } : { result: encode(reply as Reply) },
          ),
        );
      }
    }
    if (!Array.isArray(parsed)) return send(response, 400, { error: 'ERR expected a command array' });
    try {
      const reply = await client.sendCommand(rewrite(toArgs(parsed)));
      return send(response, 200, { result: encode(reply) });
    } catch (error) {
      return send(response, 400, { error: (error as Error).message });
    }
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error) => send(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    adminSecret,
    allocateDatabase,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      for (const client of clients.values()) await (await client).quit().catch(() => {});
    },
  };
}

/** Upstash sends numbers, booleans and null inside command arrays; Redis wants strings. */
function toArgs(command: unknown[]): string[] {
  return command.map((item) =>
    typeof item === 'string'
      ? item
      : item === null
        ? 'null'
        : typeof item === 'object'
          ? JSON.stringify(item)
          : String(item),
  );
}

/** In base64 mode every string is encoded, "OK" included; integers and nil are not. */
function encodeBase64(reply: Reply): Reply {
  if (typeof reply === 'string') return Buffer.from(reply, 'utf8').toString('base64');
  if (Buffer.isBuffer(reply)) return reply.toString('base64');
  if (Array.isArray(reply)) return reply.map(encodeBase64);
  return reply;
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (chunk: Buffer) => parts.push(chunk));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}
