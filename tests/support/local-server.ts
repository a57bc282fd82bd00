import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { waitForOutput } from './child-output.js';
import { freePort } from './redis-server.js';

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Sends SIGINT (Ctrl-C) and resolves with the exit code. */
  stop(): Promise<number | null>;
}

const root = resolve(import.meta.dirname, '../..');

/** Runs `npm start`'s entry (scripts/serve.ts) with the given environment and waits for its URL. */
export async function startLocalServer(env: Record<string, string>): Promise<RunningServer> {
  // A free port is free when asked, not when the server binds it: with test files running side by
  // side another may take it in between. That one failure is tried again on a fresh port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(env);
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

/** Tries of `startLocalServer` when the port it was given is taken before the server binds it. */
const PORT_ATTEMPTS = 3;

async function startOnFreePort(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'scripts/serve.ts')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'error', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, started } = waitForOutput(child, 'Listening on http://', {
    name: 'the server',
    timeoutMs: 20_000,
  });
  await started;
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output,
    stop() {
      if (child.exitCode !== null) return Promise.resolve(child.exitCode);
      return new Promise((resolveStop) => {
        child.once('exit', (code) => resolveStop(code));
        child.kill('SIGINT');
      });
    },
  };
}
