import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForOutput } from './child-output.js';

export interface RedisServer {
  port: number;
  url: string;
  /** SIGKILL, as a crash: no shutdown save. The data folder stays for a restart. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** A fixed port (a restart on the same address); a free one by default. */
  port?: number;
  /** The data folder; a fresh temporary one (removed by `stop`) by default. */
  dir?: string;
  /** Append-only file with fsync on every write, so an acknowledged write survives a kill. */
  persistent?: boolean;
}

const INSTALL_HINT =
  'redis-server was not found. The integration tests need a real Redis: install it with `sudo apt-get install -y redis-server` (Debian/Ubuntu) or `brew install redis` (macOS), then run the tests again.';

/** Finds redis-server on PATH or in the usual Debian place; fails with how to install it. */
export function redisServerBinary(): string {
  for (const candidate of [
    process.env.REDIS_SERVER_BIN,
    'redis-server',
    '/usr/bin/redis-server',
    '/usr/sbin/redis-server',
  ]) {
    if (!candidate) continue;
    const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  throw new Error(INSTALL_HINT);
}

/**
 * Databases of a test redis-server. The Upstash bridge hands out one per test file or test and
 * reuses one only after all the others, so with test files running side by side none is emptied
 * while a file that was given it still runs.
 */
export const REDIS_DATABASES = 1024;

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts Debian's redis-server on a loopback port (free by default), with no persistence unless
 * asked, and waits until it serves.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = redisServerBinary();
  const port = options.port ?? (await freePort());
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'redis-test-'));
  const persistence = options.persistent
    ? ['--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  const child: ChildProcess = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      ...persistence,
      '--databases',
      String(REDIS_DATABASES),
      '--dir',
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForOutput(child, 'Ready to accept connections', { name: 'redis-server', timeoutMs: 10_000 })
    .started;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
