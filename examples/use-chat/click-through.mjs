// Builds this page, starts the service (`npm start`'s server from the project root) and a static
// server for the page on another port, and clicks through a conversation in Chromium:
// `npm test` here. Screenshots go to ../../test-artifacts/. Needs /usr/bin/chromium.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const artifacts = resolve(root, 'test-artifacts');
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const freePort = () =>
  new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

function startService(port, dataDir) {
  const node = resolve(root, 'node_modules/.bin/node');
  const child = spawn(node, ['--import', 'tsx', 'scripts/serve.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, STARTER_TEXT: 'off', LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((ready, fail) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`the service did not start:\n${output}`)), 30_000);
    const read = (chunk) => {
      output += chunk;
      if (output.includes('Listening on http://')) {
        clearTimeout(timer);
        ready(child);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
  });
}

function serveStatic(dir, port) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const file = join(dir, path === '/' ? 'index.html' : path);
    try {
      const body = readFileSync(file);
      response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((ready) => server.listen(port, '127.0.0.1', () => ready(server)));
}

const check = (condition, message) => {
  if (!condition) throw new Error(message);
};

const started = performance.now();
const dataDir = mkdtempSync(join(tmpdir(), 'use-chat-example-'));
const servicePort = await freePort();
const service = await startService(servicePort, dataDir);
let pageServer;
let browser;
try {
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  const trained = await fetch(`${serviceUrl}/api/train`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      text: '# Harbour museum\n\n## Opening hours\n\nThe harbour museum opens at nine in the morning and closes at six in the evening.\n\n## Tickets\n\nA ticket costs five euros for adults and is free for children.',
      format: 'markdown',
      name: 'museum.md',
    }),
  });
  check(trained.ok, `training answered ${trained.status}`);

  process.env.VITE_CHAT_API = `${serviceUrl}/api/ui/chat`;
  await build({ root: here, logLevel: 'warn' });
  const pagePort = await freePort();
  pageServer = await serveStatic(join(here, 'dist'), pagePort);

  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`http://127.0.0.1:${pagePort}/`);

  const log = page.getByRole('log', { name: 'Conversation' });
  await page.getByRole('textbox', { name: 'Message' }).fill('When does the harbour museum open?');
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = log.getByRole('article', { name: 'Assistant' }).last();
  await reply
    .getByRole('paragraph')
    .getByText(/opens at nine/)
    .waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Regenerate' }).waitFor();
  const source = reply.getByRole('list', { name: 'Sources' }).locator('summary').first();
  check(
    (await source.textContent()) === 'museum.md — Harbour museum > Opening hours',
    `source title: ${await source.textContent()}`,
  );
  await source.click();
  check(
    /opens at nine/.test(await reply.locator('blockquote').first().textContent()),
    'the passage is shown',
  );

  await page.getByRole('textbox', { name: 'Message' }).fill('How much is a ticket for children?');
  await page.getByRole('button', { name: 'Send' }).click();
  await log
    .getByRole('article', { name: 'Assistant' })
    .nth(1)
    .getByRole('paragraph')
    .getByText(/free for children/)
    .waitFor({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Regenerate' }).click();
  await log
    .getByRole('article', { name: 'Assistant' })
    .nth(1)
    .getByRole('paragraph')
    .getByText(/free for children/)
    .waitFor({ timeout: 15_000 });
  check((await log.getByRole('article').count()) === 4, 'two questions, two answers after regenerate');
  check(errors.length === 0, `page errors: ${errors.join('; ')}`);
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'use-chat-example.png') });
  console.log(`use-chat example: clicked through in ${Math.round(performance.now() - started)} ms`);
} finally {
  await browser?.close();
  pageServer?.close();
  service.kill('SIGINT');
  rmSync(dataDir, { recursive: true, force: true });
}
