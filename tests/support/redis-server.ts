import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForOutput } from './child-output.js';

export interface RedisServer {
  port: number;
  url: string;
  stop(): Promise<void>;
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

/** Starts Debian's redis-server on a free loopback port, with no persistence, and waits until it serves. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = redisServerBinary();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const child: ChildProcess = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--databases',
      '64',
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
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
