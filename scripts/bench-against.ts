/**
 * `npm run bench -- --against <commit>`: this tree's `npm start` and a commit's, side by side in
 * one run on this machine. The commit is checked out in a temporary git worktree (with a copy of
 * node_modules made of hard links), both servers start on loopback ports with their own DATA_DIR,
 * both are trained on the same parts of the same corpus through POST /api/train, and the load runs
 * interleaved (ours, theirs, then theirs, ours for the next row), so both see the same neighbours.
 * The first row starts once every server has been idle for 2.5 s after training (each settles its
 * model and writes a snapshot a second after its last train; not on the clock of the first row).
 *
 * Rows: 10 clients post one message for `--seconds` (default 10) with every message in one long
 * session, then with a fresh session per message, in instant and expert; then one request alone
 * (sequential, the median), in a fresh session and in a session with history. Each row prints both
 * figures, the ratio ours/theirs and the server CPU-ms per request of both.
 *
 * `--rows long-instant,long-expert,fresh-instant,fresh-expert,alone` runs only those rows.
 * `--against A,B` compares with several commits in the same run (one server each, the order
 * rotating from row to row); `--repeat N` runs every row N times (the order rotating each time)
 * and prints the medians: on a shared machine one 10-second row swings by 2x with the neighbours.
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
  /** The commits to compare with (the first is the main comparison: `theirs` in the JSON). */
  commits: string[];
  /** Times each row runs; the table shows medians. */
  repeat: number;
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
  /** `ours`, or the commit's short hash. */
  label: string;
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
    throw new Error('--against needs a commit (a hash, a tag or a branch), or several: A,B');
  const commits = commit.split(',').filter(Boolean);
  if (commits.length === 0 || commits.length > 3) throw new Error('--against: one to three commits, A,B');
  const repeat = Number(value('--repeat') ?? 1);
  if (!(Number.isInteger(repeat) && repeat >= 1 && repeat <= 9))
    throw new Error('--repeat must be a whole number from 1 to 9');
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
    commits,
    repeat,
    corpus: value('--corpus') ?? defaultCorpus,
    seconds,
    connections,
    message: value('--message') ?? 'tell me about wisdom',
    aloneRequests: 60,
    profileDir: profile ? resolve(profile) : undefined,
    rows,
  };
}

/** One row: each server's figure (medians over the repeats) and the ratio of ours to each peer's. */
interface Row {
  name: string;
  unit: string;
  /** By server label; the medians of the repeats. */
  figures: Record<string, Figure>;
  /** By peer label: the median over the repeats of ours/theirs (theirs/ours for times). */
  ratios: Record<string, number>;
}

/** Runs the comparison and prints its table. */
export async function benchAgainst(options: AgainstOptions): Promise<void> {
  const text = readFileSync(options.corpus, 'utf8');
  const parts = trainingParts(text);
  const hashes = options.commits.map((commit) =>
    execFileSync('git', ['-C', ROOT, 'rev-parse', '--verify', `${commit}^{commit}`], {
      encoding: 'utf8',
    }).trim(),
  );
  // A reader that goes away (`| head`) must not end the run before the servers are stopped.
  process.stdout.on('error', () => {});
  const scratch = mkdtempSync(join(tmpdir(), 'bench-against-'));
  const servers: Server[] = [];
  const trees: string[] = [];
  try {
    const ports = freePorts(hashes.length + 1);
    servers.push(
      startServer('ours', ROOT, ports[0], scratch, options.profileDir && join(options.profileDir, 'ours')),
    );
    hashes.forEach((hash, i) => {
      const tree = join(scratch, `tree-${i}`);
      execFileSync('git', ['-C', ROOT, 'worktree', 'add', '--detach', tree, hash], { stdio: 'ignore' });
      trees.push(tree);
      copyNodeModules(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
      // The first commit's profile goes to DIR/theirs (as with one commit), another's to DIR/<hash>.
      const label = labelOf(hash, i, hashes);
      const profileDir = options.profileDir && join(options.profileDir, i === 0 ? 'theirs' : label);
      servers.push(startServer(label, tree, ports[i + 1], scratch, profileDir));
    });
    for (const server of servers) await waitForServer(server);
    for (const server of servers) {
      const started = performance.now();
      for (const part of parts) await post(server, '/api/train', { text: part });
      process.stderr.write(
        `${server.label}: trained in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      );
    }
    process.stderr.write(`servers quiet after ${(await untilQuiet(servers)).toFixed(1)} s\n`);
    const rows: Row[] = [];
    let turn = 0;
    const all = async (name: string, unit: string, run: (server: Server) => Promise<Figure>) => {
      const runs: Record<string, Figure[]> = Object.fromEntries(servers.map((server) => [server.label, []]));
      const ratios: Record<string, number[]> = Object.fromEntries(
        servers.slice(1).map((server) => [server.label, []]),
      );
      for (let time = 0; time < options.repeat; time++) {
        // Rotated from run to run, so that no server always goes first (or right after another).
        const order = servers.map((_, i) => servers[(i + turn) % servers.length]);
        turn++;
        for (const server of order) runs[server.label].push(await run(server));
        const ours = runs.ours.at(-1)!.value;
        for (const peer of servers.slice(1)) {
          const theirs = runs[peer.label].at(-1)!.value;
          ratios[peer.label].push(unit === 'ms' ? theirs / ours : ours / theirs);
        }
      }
      rows.push({
        name,
        unit,
        figures: Object.fromEntries(
          Object.entries(runs).map(([label, figures]) => [
            label,
            {
              value: median(figures.map((f) => f.value)),
              cpuMsPerRequest: median(figures.map((f) => f.cpuMsPerRequest)),
              failed: figures.reduce((sum, f) => sum + f.failed, 0),
            },
          ]),
        ),
        ratios: Object.fromEntries(Object.entries(ratios).map(([label, list]) => [label, median(list)])),
      });
      // Every run's figures too: the medians hide how far one 10-second row swings.
      const each = servers.map(
        (server) =>
          `${server.label} ${runs[server.label].map((f) => `${f.value.toFixed(unit === 'ms' ? 1 : 0)} (${f.cpuMsPerRequest.toFixed(2)} CPU-ms)`).join(', ')}`,
      );
      process.stderr.write(`${name}: done; ${each.join('; ')}\n`);
    };
    const wanted = (row: string) => !options.rows || options.rows.includes(row);
    for (const session of ['long', 'fresh'] as const) {
      for (const mode of ['instant', 'expert'] as const) {
        if (!wanted(`${session}-${mode}`)) continue;
        await all(
          `${session === 'long' ? 'every message in one long session' : 'a fresh session per message'}, ${mode}`,
          'req/s',
          (server) => load(server, options, mode, session),
        );
      }
    }
    if (wanted('alone')) {
      await all('one request alone, fresh session (expert, median)', 'ms', (server) =>
        alone(server, options, 'fresh'),
      );
      await all('one request alone, with history (expert, median)', 'ms', (server) =>
        alone(server, options, 'history'),
      );
    }
    printTable(rows, servers, hashes, options);
  } finally {
    for (const server of servers) await stopGroup(server.group);
    for (const tree of trees) {
      try {
        execFileSync('git', ['-C', ROOT, 'worktree', 'remove', '--force', tree], { stdio: 'ignore' });
      } catch {
        // Removed below with the scratch folder; prune forgets it.
      }
    }
    rmSync(scratch, { recursive: true, force: true });
    execFileSync('git', ['-C', ROOT, 'worktree', 'prune'], { stdio: 'ignore' });
  }
}

/** A peer's label: its short hash (longer when two commits share the first seven digits). */
function labelOf(hash: string, i: number, hashes: string[]): string {
  const short = hash.slice(0, 7);
  return hashes.filter((other) => other.slice(0, 7) === short).length > 1 ? `${short}-${i + 1}` : short;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
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

function freePorts(count: number): number[] {
  const base = 5100 + Math.floor(Math.random() * 350) * 4;
  return Array.from({ length: count }, (_, i) => base + i);
}

function startServer(
  label: string,
  cwd: string,
  port: number,
  scratch: string,
  /** Where the server's CPU profile goes (`--profile`); none without. */
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
    mkdirSync(profileDir, { recursive: true });
    env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
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

function printTable(rows: Row[], servers: Server[], hashes: string[], options: AgainstOptions): void {
  const peers = servers.slice(1).map((server) => server.label);
  const cells = rows.map((row) => {
    const digits = row.unit === 'ms' ? 1 : 0;
    const fmt = (f: Figure) =>
      `${f.value.toFixed(digits)} ${row.unit}${f.failed ? ` (${f.failed} failed)` : ''}`;
    return [
      row.name,
      ...servers.map((server) => fmt(row.figures[server.label])),
      ...peers.map((peer) => row.ratios[peer].toFixed(2)),
      servers.map((server) => row.figures[server.label].cpuMsPerRequest.toFixed(2)).join(' / '),
    ];
  });
  const header = [
    '',
    'this tree',
    ...peers,
    ...peers.map((peer) => (peers.length > 1 ? `ratio vs ${peer}` : 'speed ratio')),
    'server CPU-ms/request',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  const repeats = options.repeat > 1 ? `, each row ${options.repeat} times (medians)` : '';
  process.stdout.write(
    `${options.connections} clients post "${options.message}" for ${options.seconds} s per row (after 2 s of warm-up), ` +
      `interleaved${repeats}; one request alone: median of ${options.aloneRequests}. ` +
      `Speed ratio: this tree's speed / ${peers.join("'s, / ")}'s.\n`,
  );
  process.stdout.write(`${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of cells) process.stdout.write(`${line(row)}\n`);
  // `against`, `ours` and `theirs` as before (the first commit); `peers` every commit's figures.
  const json = {
    against: hashes[0],
    commits: hashes,
    repeat: options.repeat,
    rows: rows.map(({ name, unit, figures, ratios }) => ({
      name,
      unit,
      ours: figures.ours,
      theirs: figures[peers[0]],
      ratio: ratios[peers[0]],
      peers: Object.fromEntries(
        peers.map((peer, i) => [hashes[i], { ...figures[peer], ratio: ratios[peer] }]),
      ),
    })),
  };
  process.stdout.write(`${JSON.stringify(json)}\n`);
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

/** How long the servers must use (next to) no CPU before the first row starts. */
const QUIET_MS = 2_500;
/** What counts as no CPU: 50 ms of CPU in a poll of half a second (10% of a core; /proc counts in 10 ms ticks). */
const QUIET_POLL_MS = 500;
const QUIET_CPU_MS = 50;

/**
 * Waits until every server has gone quiet after training (at most a minute), and says how long it
 * took in seconds. A server settles its model and writes a snapshot a second after its last train
 * (lib/training, `settleAfterMs`): the last server trained would otherwise write it while the
 * first row's first server (ours) is measured, on the same cores.
 */
async function untilQuiet(servers: readonly Server[]): Promise<number> {
  const started = performance.now();
  let last = servers.map((server) => groupCpuMs(server.group));
  let quietFor = 0;
  while (quietFor < QUIET_MS && performance.now() - started < 60_000) {
    await new Promise((done) => setTimeout(done, QUIET_POLL_MS));
    const now = servers.map((server) => groupCpuMs(server.group));
    const busy = now.some((ms, i) => ms - last[i] > QUIET_CPU_MS);
    quietFor = busy ? 0 : quietFor + QUIET_POLL_MS;
    last = now;
  }
  return (performance.now() - started) / 1000;
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
