import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './redis-server';

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
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'scripts/serve.ts')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'error', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await new Promise<void>((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 20 s:\n${output}`)), 20_000);
    const check = setInterval(() => {
      if (output.includes('Listening on http://')) {
        clearInterval(check);
        clearTimeout(timer);
        resolveStart();
      }
    }, 25);
    child.once('exit', (code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    stop() {
      if (child.exitCode !== null) return Promise.resolve(child.exitCode);
      return new Promise((resolveStop) => {
        child.once('exit', (code) => resolveStop(code));
        child.kill('SIGINT');
      });
    },
  };
}
