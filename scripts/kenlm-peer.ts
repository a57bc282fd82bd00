/**
 * KenLM as a live peer of `npm run bench`, optional and outside the project: when `KENLM_BIN` names
 * a directory holding KenLM's `lmplz`, `build_binary` and `query`, the bench trains, binarises and
 * queries with them on the same files in the same run, so the ratios come from one machine under
 * one load rather than from figures measured elsewhere.
 */
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROGRAMS = ['lmplz', 'build_binary', 'query'] as const;
type Program = (typeof PROGRAMS)[number];

/** One KenLM process: wall time measured here, CPU and peak resident memory as KenLM reports them. */
export interface KenlmRun {
  seconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
}

export interface KenlmFigures {
  /** `lmplz -o N -S 50M` on the train file, ARPA written to a temporary file. */
  train: KenlmRun;
  /** Size of the probing binary `build_binary probing` makes of that ARPA file. */
  probingBytes: number;
  /** `query -v summary` of the probing binary on the test text repeated: the whole process. */
  query: KenlmRun & {
    tokens: number;
    perplexity: number;
    tokensPerSecond: number;
    tokensPerCpuSecond: number;
  };
}

/** The directory `KENLM_BIN` names, checked to hold the three programs; undefined when it is unset. */
export function kenlmDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const directory = env.KENLM_BIN;
  if (!directory) return undefined;
  for (const program of PROGRAMS) {
    try {
      accessSync(join(directory, program), constants.X_OK);
    } catch {
      throw new Error(`KENLM_BIN=${directory}: no executable ${program} there`);
    }
  }
  return directory;
}

/** Runs one KenLM program with `stdin` and `stdout` connected to files (when given). */
function runKenlm(
  directory: string,
  program: Program,
  args: string[],
  files: { stdin?: string; stdout?: string } = {},
): { seconds: number; stdout: string; stderr: string } {
  const input = files.stdin === undefined ? 'ignore' : openSync(files.stdin, 'r');
  const output = files.stdout === undefined ? 'pipe' : openSync(files.stdout, 'w');
  try {
    const started = performance.now();
    const result = spawnSync(join(directory, program), args, {
      stdio: [input, output, 'pipe'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    if (result.error) throw result.error;
    if (result.status !== 0) {
      const last = result.stderr.trim().split('\n').at(-1) ?? '';
      throw new Error(`${program} exited with ${result.status ?? result.signal}: ${last}`);
    }
    return { seconds, stdout: result.stdout ?? '', stderr: result.stderr };
  } finally {
    if (typeof input === 'number') closeSync(input);
    if (typeof output === 'number') closeSync(output);
  }
}

/** lmplz and query end with a usage line on stderr (`RSSMax:<kB> kB ... CPU:<s> real:<s>`). */
function withUsage(program: Program, run: { seconds: number; stderr: string }): KenlmRun {
  const usage = /RSSMax:(\d+) kB.*\bCPU:([\d.]+)/.exec(run.stderr);
  if (!usage) throw new Error(`${program} printed no usage line (is KENLM_BIN KenLM's bin directory?)`);
  return { seconds: run.seconds, cpuSeconds: Number(usage[2]), peakRssBytes: Number(usage[1]) * 1024 };
}

function summaryValue(summary: string, label: string): number {
  const match = new RegExp(`^${label}:\\s*([\\d.]+)`, 'm').exec(summary);
  if (!match) throw new Error(`query -v summary printed no "${label}"`);
  return Number(match[1]);
}

/**
 * KenLM on `trainFile` (order `order`, `lmplz -S 50M`) and on `testFile` repeated `repeat` times,
 * the files whitespace-tokenised as KenLM reads them. Temporary files go under the system's
 * temporary directory and are removed.
 */
export function measureKenlm(
  directory: string,
  options: { order: number; trainFile: string; testFile: string; repeat: number },
): KenlmFigures {
  const work = mkdtempSync(join(tmpdir(), 'kenlm-peer-'));
  try {
    const arpa = join(work, 'model.arpa');
    const probing = join(work, 'model.probing');
    const test = join(work, 'test.txt');
    const lmplz = runKenlm(directory, 'lmplz', ['-o', String(options.order), '-S', '50M', '-T', work], {
      stdin: options.trainFile,
      stdout: arpa,
    });
    runKenlm(directory, 'build_binary', ['probing', arpa, probing]);
    rmSync(arpa);
    let once = readFileSync(options.testFile);
    if (once.length > 0 && once[once.length - 1] !== 0x0a) once = Buffer.concat([once, Buffer.from('\n')]);
    const testFd = openSync(test, 'w');
    try {
      for (let i = 0; i < options.repeat; i++) writeSync(testFd, once);
    } finally {
      closeSync(testFd);
    }
    const query = runKenlm(directory, 'query', ['-v', 'summary', probing], { stdin: test });
    const queryRun = withUsage('query', query);
    const tokens = summaryValue(query.stdout, 'Tokens');
    return {
      train: withUsage('lmplz', lmplz),
      probingBytes: statSync(probing).size,
      query: {
        ...queryRun,
        tokens,
        perplexity: summaryValue(query.stdout, 'Perplexity including OOVs'),
        tokensPerSecond: tokens / queryRun.seconds,
        tokensPerCpuSecond: tokens / queryRun.cpuSeconds,
      },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
