import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

export interface TrainRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `npm run train -- ...args` (its script, with the same Node). The environment's training
 * settings are cleared first so that only `env` decides them.
 */
export function spawnTrain(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<TrainRun> } {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'scripts/train.ts'), ...args], {
    cwd: root,
    env: { ...process.env, TRAIN_URL: '', OWNER_EMAIL: '', ADMIN_TOKEN: '', PORT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<TrainRun>((finish) =>
    child.on('close', (code, signal) => finish({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** Runs `npm run train -- ...args` to its end. */
export function runTrain(args: string[], env: Record<string, string> = {}): Promise<TrainRun> {
  return spawnTrain(args, env).done;
}
