/**
 * `npm run bench -- --against <commit>`: this tree's `npm start` and a commit's, side by side in
 * one run on this machine. The commit is checked out in a temporary git worktree (with a copy of
 * node_modules made of hard links), both servers start on loopback ports with their own DATA_DIR,
 * both are trained on the same parts of the same corpus through POST /api/train, and the load runs
 * interleaved (ours, theirs, then theirs, ours for the next row), so both see the same neighbours.
 *
 * Rows: 10 clients post one message for `--seconds` (default 10) with every message in one long
 * session, then with a fresh session per message, in instant and expert; then one request alone
 * (sequential, the median), in a fresh session and in a session with history. Each row prints both
 * figures, the ratio ours/theirs and the server CPU-ms per request of both.
 *
 * `--rows long-instant,long-expert,fresh-instant,fresh-expert,alone` runs only those rows.
 * `--profile DIR` runs both servers under `node --cpu-prof` and writes their profiles to DIR/ours
 * and DIR/theirs (read them with `npm run bench -- --stages DIR/ours`, bench-stages.ts).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { trainingParts } from './bench-services.js';

const ROOT = resolve(import.meta.dirname, '..');

export interface AgainstOptions {
  commit: string;
  corpus: string;
  seconds: number;
  connections: number;
  message: string;
  /** Requests timed one at a time for the rows of one request alone. */
  aloneRequests: number;
  profileDir?: string;
  /** Only these rows (`long-instant`, `long-expert`, `fresh-instant`, `fresh-expert`, `alone`); all by default. */
  rows?: string[];
}

interface Server {
  label: 'ours' | 'theirs';
  url: string;
  group: number;
  process: ChildProcess;
  dataDir: string;
}

interface Figure {
  /** req/s for a load row, ms (median) for a row of one request alone. */
  value: number;
  cpuMsPerRequest: number;
  failed: number;
}

/** Parses `--against C [--seconds N] [--connections N] [--corpus FILE] [--profile DIR]`. */
export function againstOptions(argv: string[], defaultCorpus: string): AgainstOptions | undefined {
  const at = argv.indexOf('--against');
  if (at < 0) return undefined;
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const commit = argv[at + 1];
  if (!commit || commit.startsWith('--'))
    throw new Error('--against needs a commit (a hash, a tag or a branch)');
  const seconds = Number(value('--seconds') ?? 10);
  const connections = Number(value('--connections') ?? 10);
  if (!(seconds > 0 && seconds <= 120)) throw new Error('--seconds must be between 1 and 120');
  if (!(Number.isInteger(connections) && connections > 0 && connections <= 100))
    throw new Error('--connections must be a whole number from 1 to 100');
  const profile = value('--profile');
  const rows = value('--rows')?.split(',');
  const known = ['long-instant', 'long-expert', 'fresh-instant', 'fresh-expert', 'alone'];
  if (rows?.some((row) => !known.includes(row))) throw new Error(`--rows: a list of ${known.join(', ')}`);
  return {
    commit,
    corpus: value('--corpus') ?? defaultCorpus,
    seconds,
    connections,
    message: value('--message') ?? 'tell me about wisdom',
    aloneRequests: 60,
    profileDir: profile ? resolve(profile) : undefined,
    rows,
  };
}

/** Runs the comparison and prints its table. */
export async function benchAgainst(options: AgainstOptions): Promise<void> {
  const text = readFileSync(options.corpus, 'utf8');
  const parts = trainingParts(text);
  const hash = execFileSync('git', ['-C', ROOT, 'rev-parse', '--verify', `${options.commit}^{commit}`], {
    encoding: 'utf8',
  }).trim();
  // A reader that goes away (`| head`) must not end the run before the servers are stopped.
  process.stdout.on('error', () => {});
  const scratch = mkdtempSync(join(tmpdir(), 'bench-against-'));
  const peerTree = join(scratch, 'tree');
  const servers: Server[] = [];
  try {
    execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', peerTree, hash], { stdio: 'ignore' });
    copyNodeModules(join(ROOT, 'node_modules'), join(peerTree, 'node_modules'));
    const ports = freePorts();
    servers.push(startServer('ours', ROOT, ports[0], scratch, options.profileDir));
    servers.push(startServer('theirs', peerTree, ports[1], scratch, options.profileDir));
    for (const server of servers) await waitForServer(server);
    for (const server of servers) {
      const started = performance.now();
      for (const part of parts) await post(server, '/api/train', { text: part });
      process.stderr.write(
        `${server.label}: trained in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      );
    }
    const rows: { name: string; unit: string; ours: Figure; theirs: Figure }[] = [];
    let flip = false;
    const both = async (name: string, unit: string, run: (server: Server) => Promise<Figure>) => {
      const order = flip ? [servers[1], servers[0]] : servers;
      flip = !flip;
      const figures: Partial<Record<Server['label'], Figure>> = {};
      for (const server of order) figures[server.label] = await run(server);
      rows.push({ name, unit, ours: figures.ours!, theirs: figures.theirs! });
      process.stderr.write(`${name}: done\n`);
    };
    const wanted = (row: string) => !options.rows || options.rows.includes(row);
    for (const session of ['long', 'fresh'] as const) {
      for (const mode of ['instant', 'expert'] as const) {
        if (!wanted(`${session}-${mode}`)) continue;
        await both(
          `${session === 'long' ? 'every message in one long session' : 'a fresh session per message'}, ${mode}`,
          'req/s',
          (server) => load(server, options, mode, session),
        );
      }
    }
    if (wanted('alone')) {
      await both('one request alone, fresh session (expert, median)', 'ms', (server) =>
        alone(server, options, 'fresh'),
      );
      await both('one request alone, with history (expert, median)', 'ms', (server) =>
        alone(server, options, 'history'),
      );
    }
    printTable(rows, hash, options);
  } finally {
    for (const server of servers) await stopGroup(server.group);
    try {
      execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', peerTree], { stdio: 'ignore' });
    } catch {
      // Removed below with the scratch folder; prune forgets it.
    }
    rmSync(scratch, { recursive: true, force: true });
    execFileSync('git', ['-C', ROOT, 'worktree', 'prune'], { stdio: 'ignore' });
  }
}

/** Hard links where the file system allows them (fast, no space), a real copy otherwise. */
function copyNodeModules(from: string, to: string): void {
  try {
    execFileSync('cp', ['-al', from, to], { stdio: 'ignore' });
  } catch {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
}

function freePorts(): [number, number] {
  const base = 5100 + Math.floor(Math.random() * 700) * 2;
  return [base, base + 1];
}

function startServer(
  label: Server['label'],
  cwd: string,
  port: number,
  scratch: string,
  profileDir: string | undefined,
): Server {
  const dataDir = join(scratch, `data-${label}`);
  mkdirSync(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    // Nothing that would send a server to Redis, an external model or a sign-in provider.
    if (/^(UPSTASH_|KV_|LLM_|OIDC_|NODE_OPTIONS$)/.test(name)) delete env[name];
  }
  if (profileDir) {
    const dir = join(profileDir, label);
    mkdirSync(dir, { recursive: true });
    env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${dir}`;
  }
  const child = spawn('npm', ['start', '--silent'], {
    cwd,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: dataDir,
      STARTER_TEXT: 'off',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_REQUESTS: '1000000',
      SESSION_LIMIT_FREE: '1000000',
      SESSION_LIMIT_SIGNED_IN: '1000000',
    },
  });
  return { label, url: `http://127.0.0.1:${port}`, group: child.pid!, process: child, dataDir };
}

async function waitForServer(server: Server): Promise<void> {
  for (let waited = 0; waited < 120_000; waited += 250) {
    if (server.process.exitCode !== null)
      throw new Error(`${server.label}: npm start exited with ${server.process.exitCode}`);
    try {
      if ((await fetch(`${server.url}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`${server.label}: npm start did not answer within 2 minutes`);
}

async function post(server: Server, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${server.label} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function load(
  server: Server,
  options: AgainstOptions,
  mode: 'instant' | 'expert',
  session: 'long' | 'fresh',
): Promise<Figure> {
  let sent = 0;
  const body = () =>
    JSON.stringify({
      message: options.message,
      sessionId: session === 'long' ? `bench-long-${mode}` : `bench-${mode}-${sent++}`,
      modelMode: mode,
    });
  const run = (duration: number) =>
    autocannon({
      url: server.url,
      connections: options.connections,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/api/chat',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: body() }),
        },
      ],
    });
  await run(2); // Warm-up: the code paths compiled, the session (long) already holding history.
  const cpu = groupCpuMs(server.group);
  const result = await run(options.seconds);
  const used = groupCpuMs(server.group) - cpu;
  const requests = result.requests.total;
  return {
    value: requests / (result.duration || options.seconds),
    cpuMsPerRequest: requests ? used / requests : 0,
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

/** The median time of one request at a time: each in a new session, or all in one that holds history. */
async function alone(server: Server, options: AgainstOptions, session: 'fresh' | 'history'): Promise<Figure> {
  const sessionId = (i: number) => (session === 'fresh' ? `bench-alone-${i}` : 'bench-alone-history');
  const ask = async (i: number) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: options.message, sessionId: sessionId(i), modelMode: 'expert' }),
    });
    await response.arrayBuffer();
    return { ms: performance.now() - started, ok: response.ok };
  };
  // Warm-up, and for `history` the turns the timed requests then carry.
  for (let i = 0; i < 10; i++) await ask(-1 - i);
  const cpu = groupCpuMs(server.group);
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; i < options.aloneRequests; i++) {
    const { ms, ok } = await ask(i);
    times.push(ms);
    if (!ok) failed++;
  }
  times.sort((a, b) => a - b);
  return {
    value: times[Math.floor(times.length / 2)],
    cpuMsPerRequest: (groupCpuMs(server.group) - cpu) / options.aloneRequests,
    failed,
  };
}

function printTable(
  rows: { name: string; unit: string; ours: Figure; theirs: Figure }[],
  hash: string,
  options: AgainstOptions,
): void {
  const cells = rows.map((row) => {
    const digits = row.unit === 'ms' ? 1 : 0;
    const fmt = (f: Figure) =>
      `${f.value.toFixed(digits)} ${row.unit}${f.failed ? ` (${f.failed} failed)` : ''}`;
    // For times, the ratio is theirs/ours, so that above 1 means faster here in every row.
    const ratio = row.unit === 'ms' ? row.theirs.value / row.ours.value : row.ours.value / row.theirs.value;
    return [
      row.name,
      fmt(row.ours),
      fmt(row.theirs),
      ratio.toFixed(2),
      `${row.ours.cpuMsPerRequest.toFixed(2)} / ${row.theirs.cpuMsPerRequest.toFixed(2)}`,
    ];
  });
  const header = ['', 'this tree', hash.slice(0, 7), 'speed ratio', 'server CPU-ms/request'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  process.stdout.write(
    `${options.connections} clients post "${options.message}" for ${options.seconds} s per row (after 2 s of warm-up), ` +
      `interleaved; one request alone: median of ${options.aloneRequests}. Speed ratio: this tree's speed / ${hash.slice(0, 7)}'s.\n`,
  );
  process.stdout.write(`${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of cells) process.stdout.write(`${line(row)}\n`);
  process.stdout.write(
    `${JSON.stringify({ against: hash, rows: rows.map(({ name, unit, ours, theirs }) => ({ name, unit, ours, theirs })) })}\n`,
  );
}

/** SIGTERM to a server's process group, then SIGKILL to whatever is left after 60 s. */
async function stopGroup(group: number): Promise<void> {
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-group, name);
      return true;
    } catch {
      return false;
    }
  };
  if (!signal('SIGTERM')) return;
  // A profiled server writes its profile on the way out, which takes seconds on a busy machine.
  for (let waited = 0; waited < 60_000; waited += 100) {
    await new Promise((done) => setTimeout(done, 100));
    if (!signal(0)) return;
  }
  signal('SIGKILL');
}

/** CPU milliseconds used so far by the processes of process group `group` (Linux /proc). */
function groupCpuMs(group: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}
