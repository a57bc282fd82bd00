import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { STORE_VARIABLES } from '../lib/config/index.js';
import { type FunctionPlan, type PlannedCall, requestPlan } from './vercel/plan.js';
import { checkPreviewIsolation } from './vercel/previews-check.js';

/**
 * `npm run verify:vercel`: what Vercel runs, checked here. Installs the Vercel CLI in a throwaway
 * folder, runs `vercel build` offline, then loads every built function with plain Node (one
 * fresh process per function: a cold start) and asks it what `npm start` is asked, comparing
 * every status and body shape; then again as a deployment without Upstash credentials, which
 * must answer 503 store_unconfigured; then as production and as a preview of a branch on one store
 * (the preview answers from production's text and its own, production never sees the preview's,
 * a reset in the preview leaves production as it was). Prints the build time, each function's size and its cold
 * import time. Exits 1 on any difference.
 */

const VERCEL_CLI_VERSION = process.env.VERCEL_CLI_VERSION ?? '64.0.2';
/** vercel 64 pins `sandbox` 4.4.0, which the registry does not serve; 4.5.0 is the same CLI. */
const SANDBOX_OVERRIDE = '4.5.0';
const STEP_TIMEOUT_MS = 6 * 60_000;
const FUNCTION_TIMEOUT_MS = 60_000;

const root = resolve(import.meta.dirname, '..');
const runner = resolve(import.meta.dirname, 'vercel/run-function.mjs');

/** The environment every function and the local server get: nothing from outside that changes answers. */
function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    ...STORE_VARIABLES,
    'VERCEL',
    'VERCEL_ENV',
    'VERCEL_GIT_COMMIT_REF',
    'STORE_NAMESPACE',
    'PREVIEW_CORPUS',
    'ADMIN_TOKEN',
    'LLM_BASE_URL',
    'OWNER_EMAIL',
    'API_KEY',
    'DATA_DIR',
  ]) {
    delete env[name];
  }
  // No internet in CI: Wikipedia look-ups fail at once (connection refused) instead of timing out.
  return { ...env, LOG_LEVEL: 'error', WIKIPEDIA_BASE_URL: 'http://127.0.0.1:9', ...extra };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number; quiet?: boolean },
): Promise<{ code: number | null; output: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} took longer than ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output, stderr });
    });
  });
}

async function installCli(folder: string): Promise<string> {
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({
      name: 'verify-vercel-cli',
      private: true,
      dependencies: { vercel: VERCEL_CLI_VERSION },
      overrides: { sandbox: SANDBOX_OVERRIDE },
    }),
  );
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  const result = await run(
    command,
    [
      ...args,
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--prefer-offline',
      '--loglevel=error',
    ],
    { cwd: folder, timeoutMs: STEP_TIMEOUT_MS },
  );
  if (result.code !== 0) throw new Error(`Installing vercel@${VERCEL_CLI_VERSION} failed:\n${result.output}`);
  const manifest = JSON.parse(readFileSync(join(folder, 'node_modules/vercel/package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.vercel;
  return join(folder, 'node_modules/vercel', bin);
}

async function buildWithVercel(cli: string): Promise<void> {
  const project = join(root, '.vercel/project.json');
  if (!existsSync(project)) {
    mkdirSync(join(root, '.vercel'), { recursive: true });
    writeFileSync(
      project,
      JSON.stringify({ projectId: 'prj_verify_vercel', orgId: 'team_verify_vercel', settings: {} }),
    );
  }
  const result = await run(process.execPath, [cli, 'build', '--yes'], {
    cwd: root,
    env: {
      ...serviceEnv({}),
      VERCEL_TELEMETRY_DISABLED: '1',
      // npm ci has installed node_modules already: no second install inside the build.
      VERCEL_INSTALL_COMPLETED: '1',
    },
    timeoutMs: STEP_TIMEOUT_MS,
  });
  if (result.code !== 0) throw new Error(`vercel build failed:\n${result.output}`);
}

interface BuiltFunction {
  route: string;
  folder: string;
  handler: string;
  runtime: string;
}

/**
 * Every `.func` folder of the build output, copied outside the repo so nothing resolves from it,
 * with the repo files its `.vc-config.json` `filePathMap` names (files taken as they are, such
 * as `includeFiles`, which `vercel deploy --prebuilt` uploads from the repo) put in place.
 */
function copyFunctions(into: string): BuiltFunction[] {
  const output = join(root, '.vercel/output/functions');
  const found: BuiltFunction[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (!statSync(path).isDirectory()) continue;
      if (!name.endsWith('.func')) {
        walk(path);
        continue;
      }
      const route = `/${relative(output, path).replace(/\.func$/, '')}`;
      const folder = join(into, relative(output, path));
      cpSync(path, folder, { recursive: true, dereference: true });
      const config = JSON.parse(readFileSync(join(folder, '.vc-config.json'), 'utf8'));
      for (const [inFunction, inRepo] of Object.entries(
        (config.filePathMap ?? {}) as Record<string, string>,
      )) {
        mkdirSync(dirname(join(folder, inFunction)), { recursive: true });
        cpSync(join(root, inRepo), join(folder, inFunction));
      }
      found.push({ route, folder, handler: join(folder, config.handler), runtime: config.runtime });
    }
  };
  walk(output);
  return found;
}

function sizeOf(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0);
}

function filesUnder(path: string): string[] {
  return readdirSync(path, { recursive: true, encoding: 'utf8' }).sort();
}

/** Whether the function's own code imports sharp (then it cannot be trimmed from the bundle). */
function codeImportsSharp(folder: string): boolean {
  return filesUnder(folder).some(
    (file) =>
      !file.startsWith('node_modules') &&
      file.endsWith('.js') &&
      /from ['"]sharp['"]|import\(['"]sharp['"]\)/.test(readFileSync(join(folder, file), 'utf8')),
  );
}

async function runFunction(
  fn: BuiltFunction,
  calls: PlannedCall[],
  env: NodeJS.ProcessEnv,
  scratch: string,
): Promise<{ importMs: number; answers: Answer[]; stderr: string }> {
  const requestsFile = join(scratch, 'requests.json');
  const resultFile = join(scratch, 'result.json');
  rmSync(resultFile, { force: true });
  writeFileSync(
    requestsFile,
    JSON.stringify(
      calls.map((c) => ({
        method: c.method,
        path: c.path,
        headers: c.headers,
        ...(c.body ? { body: Buffer.from(c.body).toString('base64') } : {}),
      })),
    ),
  );
  // Vercel runs a function with its own folder as the working directory.
  const result = await run(process.execPath, [runner, fn.handler, requestsFile, resultFile], {
    cwd: fn.folder,
    env,
    timeoutMs: FUNCTION_TIMEOUT_MS,
  });
  if (!existsSync(resultFile))
    throw new Error(`${fn.route} did not answer (exit ${result.code}):\n${result.output}`);
  const parsed = JSON.parse(readFileSync(resultFile, 'utf8')) as {
    importMs: number;
    results: Array<{ status: number; headers: Record<string, string>; body: string; ms: number }>;
  };
  return {
    importMs: parsed.importMs,
    answers: parsed.results.map((r) => ({ ...r, body: Buffer.from(r.body, 'base64') })),
    stderr: result.stderr,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startLocalServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/serve.ts')], {
    cwd: root,
    env: serviceEnv({ DATA_DIR: dataDir, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolveStart, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start did not listen within 30 s:\n${output}`)),
      30_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Listening on http://')) {
        clearTimeout(timer);
        resolveStart();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function askLocal(url: string, call: PlannedCall): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${url}${call.path}`, {
    method: call.method,
    headers: call.headers,
    ...(call.body ? { body: call.body } : {}),
  });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
    ms: performance.now() - started,
  };
}

/** The structure of a JSON value: keys and value types, not the values (replies are sampled). */
function shape(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((key) => [key, shape((value as Record<string, unknown>)[key])]),
    );
  }
  return typeof value;
}

function parseJson(answer: Answer): unknown {
  if (!(answer.headers['content-type'] ?? '').includes('json') || answer.body.length === 0) return undefined;
  return JSON.parse(answer.body.toString('utf8'));
}

/** The code and message of an error body: ours `{ error, code }`, or OpenAI's `{ error: { message, code } }`. */
function errorOf(body: unknown): { code?: string; message?: string } {
  const value = body as { error?: unknown; code?: string } | undefined;
  if (value && typeof value.error === 'object' && value.error !== null) {
    const inner = value.error as { code?: string; message?: string };
    return { code: inner.code, message: inner.message };
  }
  return { code: value?.code, message: typeof value?.error === 'string' ? value.error : undefined };
}

/** Differences between what a function and `npm start` answered to the same call. */
function compare(call: PlannedCall, built: Answer, local: Answer): string[] {
  const name = `${call.method} ${call.path}`;
  const problems: string[] = [];
  if (built.status !== call.status)
    problems.push(`${name}: the function answered ${built.status}, expected ${call.status}`);
  if (built.status !== local.status)
    problems.push(`${name}: function ${built.status}, npm start ${local.status}`);
  for (const header of ['content-type', 'allow', 'access-control-allow-origin']) {
    if (built.headers[header] !== local.headers[header]) {
      problems.push(
        `${name}: ${header} is ${built.headers[header]} from the function, ${local.headers[header]} from npm start`,
      );
    }
  }
  if (call.method === 'HEAD' && built.body.length > 0)
    problems.push(`${name}: the function sent a body to HEAD`);
  const builtJson = parseJson(built);
  const localJson = parseJson(local);
  if (JSON.stringify(shape(builtJson)) !== JSON.stringify(shape(localJson))) {
    problems.push(
      `${name}: body shapes differ\n    function:  ${JSON.stringify(shape(builtJson))}\n    npm start: ${JSON.stringify(shape(localJson))}`,
    );
  }
  if (call.bodyIncludes && !built.body.toString('utf8').includes(call.bodyIncludes))
    problems.push(
      `${name}: the function's answer does not contain "${call.bodyIncludes}" (text recognition)`,
    );
  if (call.bodyIncludes && !local.body.toString('utf8').includes(call.bodyIncludes))
    problems.push(`${name}: npm start's answer does not contain "${call.bodyIncludes}" (text recognition)`);
  if (call.code && errorOf(builtJson).code !== call.code) {
    problems.push(`${name}: expected code ${call.code}, got ${JSON.stringify(builtJson)}`);
  }
  return problems;
}

/** On Vercel without Upstash/KV credentials every store-backed answer is a 503 store_unconfigured. */
function checkUnconfigured(
  fn: BuiltFunction,
  calls: PlannedCall[],
  answers: Answer[],
  stderr: string,
): string[] {
  const problems: string[] = [];
  let touchedStore = false;
  calls.forEach((call, index) => {
    const answer = answers[index]!;
    const name = `VERCEL=1 ${call.method} ${call.path}`;
    const storeFree = call.method === 'OPTIONS' || call.status === 405 || fn.route === '/api/openapi.json';
    if (storeFree) {
      if (answer.status !== call.status)
        problems.push(`${name}: answered ${answer.status}, expected ${call.status}`);
      return;
    }
    touchedStore = true;
    if (answer.status !== 503) problems.push(`${name}: answered ${answer.status}, expected 503`);
    if (call.method === 'HEAD') return;
    const body = parseJson(answer) as { status?: string } | undefined;
    const error = errorOf(body);
    if (error.code !== 'store_unconfigured' || !error.message?.includes('UPSTASH_REDIS_REST_URL')) {
      problems.push(
        `${name}: expected code store_unconfigured naming the variables, got ${answer.body.toString('utf8')}`,
      );
    }
    if (fn.route.endsWith('/health') && body?.status !== 'degraded')
      problems.push(`${name}: health does not say degraded`);
  });
  const logged = stderr.split('\n').filter((line) => line.includes('"event":"store_unconfigured"')).length;
  if (touchedStore && logged !== 1)
    problems.push(`VERCEL=1 ${fn.route}: logged store_unconfigured ${logged} times, expected once`);
  if (stderr.includes('"event":"unhandled"'))
    problems.push(`VERCEL=1 ${fn.route}: an unhandled error was logged`);
  return problems;
}

/** Functions that read text in images, and the files that must travel with them (vercel.json includeFiles). */
const RECOGNITION_ROUTES = ['/api/chat', '/api/upload', '/api/v1/chat/completions'];
const RECOGNITION_FILES = [
  'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz',
  'node_modules/tesseract.js-core/tesseract-core-relaxedsimd.wasm',
  'node_modules/tesseract.js-core/tesseract-core-simd.wasm',
  'node_modules/tesseract.js-core/tesseract-core.wasm',
  'node_modules/tesseract.js/src/worker-script/node/index.js',
];
/** Vercel's limit on a function's unzipped size. */
const FUNCTION_SIZE_LIMIT = 250 * 1024 * 1024;

/** The recognition files a function lacks, and their sizes where present. */
function recognitionFiles(fn: BuiltFunction): { missing: string[]; bytes: number } {
  const missing = RECOGNITION_FILES.filter((file) => !existsSync(join(fn.folder, file)));
  const bytes = RECOGNITION_FILES.filter((file) => existsSync(join(fn.folder, file))).reduce(
    (total, file) => total + statSync(join(fn.folder, file)).size,
    0,
  );
  return { missing, bytes };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const started = performance.now();
  const scratch = mkdtempSync(join(tmpdir(), 'verify-vercel-'));
  let local: ChildProcess | undefined;
  const problems: string[] = [];
  try {
    console.log(`verify:vercel on Node ${process.versions.node}`);
    const installStarted = performance.now();
    const cli = await installCli(mkdirAndReturn(join(scratch, 'cli')));
    console.log(
      `vercel CLI ${VERCEL_CLI_VERSION} installed in a throwaway folder in ${seconds(performance.now() - installStarted)}`,
    );

    const buildStarted = performance.now();
    await buildWithVercel(cli);
    const buildMs = performance.now() - buildStarted;
    console.log(`vercel build: ${seconds(buildMs)}`);

    const functions = copyFunctions(join(scratch, 'functions'));
    const plan = await requestPlan();
    const planned = new Map(plan.map((p: FunctionPlan) => [p.route, p.calls]));
    for (const fn of functions) {
      if (!planned.has(fn.route)) problems.push(`${fn.route}: built, but verify:vercel has no calls for it`);
      if (fn.runtime !== 'nodejs24.x')
        problems.push(`${fn.route}: runtime ${fn.runtime}, expected nodejs24.x`);
    }
    for (const route of planned.keys()) {
      if (!functions.some((fn) => fn.route === route))
        problems.push(`${route}: no function was built for it`);
    }

    // 1. The embedded store in a temp DATA_DIR: every function against npm start, call for call.
    const functionsData = mkdirAndReturn(join(scratch, 'functions-data'));
    const server = await startLocalServer(mkdirAndReturn(join(scratch, 'local-data')));
    local = server.child;
    const rows: string[][] = [];
    let compared = 0;
    for (const { route, calls } of plan) {
      const fn = functions.find((f) => f.route === route);
      if (!fn) continue;
      const built = await runFunction(fn, calls, serviceEnv({ DATA_DIR: functionsData }), scratch);
      if (built.answers.some((answer) => answer.status >= 500)) {
        problems.push(`${route} answered a 5xx; its log:\n${built.stderr.trim().slice(0, 2000)}`);
      }
      for (const [index, call] of calls.entries()) {
        const answer = await askLocal(server.url, call);
        problems.push(...compare(call, built.answers[index]!, answer));
        compared++;
      }
      const size = sizeOf(fn.folder);
      if (size > FUNCTION_SIZE_LIMIT) problems.push(`${route}: ${mb(size)}, over Vercel's 250 MB`);
      const ocr = recognitionFiles(fn);
      if (RECOGNITION_ROUTES.includes(route) && ocr.missing.length > 0)
        problems.push(`${route}: text recognition files missing: ${ocr.missing.join(', ')}`);
      const sharpBytes = ['node_modules/sharp', 'node_modules/@img']
        .map((dir) => join(fn.folder, dir))
        .filter(existsSync)
        .reduce((total, dir) => total + sizeOf(dir), 0);
      const sharp =
        sharpBytes === 0
          ? '-'
          : `${mb(sharpBytes)} ${codeImportsSharp(fn.folder) ? '(used)' : '(unused: trim)'}`;
      rows.push([
        route,
        mb(size),
        ocr.missing.length === 0 ? mb(ocr.bytes) : '-',
        sharp,
        `${Math.round(built.importMs)} ms`,
        `${Math.round(built.answers[0]!.ms)} ms`,
      ]);
    }
    local.kill('SIGINT');
    local = undefined;

    // 2. A deployment without Upstash credentials: fresh instances, read-only folders left alone.
    let unconfiguredCalls = 0;
    for (const { route, calls } of plan) {
      const fn = functions.find((f) => f.route === route);
      if (!fn) continue;
      const before = filesUnder(fn.folder).join('\n');
      const answered = await runFunction(fn, calls, serviceEnv({ VERCEL: '1' }), scratch);
      problems.push(...checkUnconfigured(fn, calls, answered.answers, answered.stderr));
      if (filesUnder(fn.folder).join('\n') !== before)
        problems.push(`VERCEL=1 ${route}: wrote into its function folder`);
      unconfiguredCalls += calls.length;
    }

    // 3. Production and a preview of a branch on one store, every call a fresh instance.
    const sharedData = mkdirAndReturn(join(scratch, 'production-and-preview-data'));
    const isolation = await checkPreviewIsolation(async (route, env, calls) => {
      const fn = functions.find((f) => f.route === route);
      if (!fn) throw new Error(`${route}: no function was built for it`);
      const planned = calls.map((c) => ({ ...c, status: 200 }));
      return (await runFunction(fn, planned, serviceEnv({ DATA_DIR: sharedData, ...env }), scratch)).answers;
    });
    problems.push(...isolation.problems);

    printTable(['function', 'size', 'ocr data+wasm', 'sharp', 'cold import', 'first answer'], rows);
    console.log(
      `\n${functions.length} functions (runtime nodejs24.x) built in ${seconds(buildMs)}; ` +
        `${compared} calls with a temp DATA_DIR compared with npm start (status, content type, Allow, CORS, body shape); ` +
        `${unconfiguredCalls} calls with VERCEL=1 and no Upstash credentials (503 store_unconfigured, logged once, nothing written); ` +
        `${isolation.calls} calls as production and as a preview of a branch on one store (the preview's training stays its own, production's is visible to it, its reset leaves production as it was).`,
    );
  } finally {
    local?.kill('SIGINT');
    rmSync(scratch, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    console.error(`\nverify:vercel found ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`verify:vercel passed in ${seconds(performance.now() - started)}`);
}

function mkdirAndReturn(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(`\n${line(header)}\n${line(widths.map((width) => '-'.repeat(width)))}`);
  for (const row of rows) console.log(line(row));
}

await main();
