import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { freePort } from '../support/redis-server.js';

/** The Debian package's browser; the suite never downloads one. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const DESKTOP = { width: 1200, height: 860 };
const PHONE = { width: 390, height: 844 };
const ACCENT = '#7a1fa2';
const artifacts = resolve(import.meta.dirname, '../../test-artifacts');
const widgetSource = readFileSync(resolve(import.meta.dirname, '../../public/widget.js'), 'utf8');

/** A host page's stylesheet at its most hostile: it must not break the widget. */
const HOSTILE_CSS = `button, input, div, textarea, p, span { all: unset; font-size: 40px !important }
* { color: #0f0 !important; font-family: "Comic Sans MS", cursive !important; }
ngram-chat-widget { display: none; }`;

const GUIDE = `# Harbour museum

## Opening hours

The harbour museum opens at nine in the morning and closes at six in the evening.

## Tickets

A ticket to the harbour museum costs five euros for adults and is free for children.`;

let service: RunningServer;
let host: Server;
let hostUrl: string;
let browser: Browser;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'widget-e2e-data-'));

/** The host page: another origin (another port), the hostile stylesheet, the one tag. */
function hostPage(search: URLSearchParams): string {
  const withWidget = search.get('widget') !== 'off';
  const attributes = [
    `data-title="${search.get('title') ?? 'Ask the museum'}"`,
    `data-greeting="Welcome aboard! Ask about the museum."`,
    `data-accent="${ACCENT}"`,
    `data-position="${search.get('position') ?? 'right'}"`,
    'data-mode="expert"',
  ].join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>A shop</title><style>${HOSTILE_CSS}</style></head>
<body><h1 id="host-heading">A shop on another origin</h1>
<p id="host-text">Our products are great.</p><button id="host-button">Buy</button>
${withWidget ? `<script src="${service.url}/widget.js" defer ${attributes}></script>` : ''}
</body></html>`;
}

async function openHost(viewport: { width: number; height: number }, query = ''): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(`${hostUrl}/${query}`);
  if (!query.includes('widget=off')) await page.getByRole('button', { name: 'Open chat' }).waitFor();
  return page;
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`) });
}

/** Sends a message with the Send button and waits until its reply has finished streaming. */
async function sendMessage(page: Page, text: string) {
  const dialog = page.getByRole('dialog', { name: /Chat/ });
  await dialog.getByRole('textbox', { name: 'Message' }).fill(text);
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.url() === `${service.url}/api/ui/chat`),
    dialog.getByRole('button', { name: 'Send' }).click(),
  ]);
  await response.finished();
  await page.waitForFunction(
    () => {
      const root = document.querySelector('ngram-chat-widget')?.shadowRoot;
      const log = root?.querySelector('[role="log"]');
      return log !== null && log !== undefined && !log.hasAttribute('aria-busy');
    },
    undefined,
    { timeout: 15_000 },
  );
  return { request: JSON.parse(response.request().postData() ?? '{}'), response };
}

/** The element focused inside the widget's shadow root, by its accessible label or text. */
function focusedInWidget(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = document.querySelector('ngram-chat-widget')?.shadowRoot;
    if (document.activeElement?.tagName.toLowerCase() !== 'ngram-chat-widget') return null;
    const active = root?.activeElement;
    return active?.getAttribute('aria-label') ?? active?.id ?? active?.textContent ?? null;
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. Install the Debian package: apt-get install -y chromium ` +
        '(this test never downloads a browser).',
    );
  }
  service = await startLocalServer({ DATA_DIR: dataDir });
  const trained = await fetch(`${service.url}/api/train`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ text: GUIDE, format: 'markdown', name: 'museum.md' }),
  });
  expect(trained.status).toBe(200);
  const port = await freePort();
  host = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(hostPage(url.searchParams));
  });
  await new Promise<void>((listening) => host.listen(port, '127.0.0.1', listening));
  hostUrl = `http://127.0.0.1:${port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((closed) => host?.close(closed));
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the chat widget on a page of another origin', () => {
  it('is small: one framework-free file', () => {
    const gzipped = gzipSync(widgetSource, { level: 9 }).length;
    console.log(`[widget] public/widget.js ${widgetSource.length} bytes, ${gzipped} bytes gzipped`);
    expect(widgetSource).not.toMatch(/\bimport\b|\brequire\(/);
    expect(gzipped).toBeLessThan(10_000);
  });

  it('opens from its launcher, answers with citations, and closes with Escape (desktop, hostile CSS)', async () => {
    const page = await openHost(DESKTOP);
    const launcher = page.getByRole('button', { name: 'Open chat' });
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');
    expect(await launcher.evaluate((node) => getComputedStyle(node).backgroundColor)).toBe(
      'rgb(122, 31, 162)',
    );
    const launcherBox = (await launcher.boundingBox())!;
    expect(launcherBox.x + launcherBox.width).toBeGreaterThan(DESKTOP.width - 40);
    await launcher.click();

    const dialog = page.getByRole('dialog', { name: /Chat/ });
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-label')).toBe('Ask the museum — Chat');
    expect(await launcher.getAttribute('aria-expanded')).toBe('true');
    expect(await focusedInWidget(page)).toBe('message');
    const log = dialog.getByRole('log');
    expect(await log.textContent()).toContain('Welcome aboard! Ask about the museum.');

    // The hostile stylesheet reaches neither the widget's controls nor its text.
    const send = dialog.getByRole('button', { name: 'Send' });
    const sendStyle = await send.evaluate((node) => {
      const style = getComputedStyle(node);
      return { fontSize: style.fontSize, color: style.color, display: style.display };
    });
    expect(sendStyle).toEqual({ fontSize: '15px', color: 'rgb(255, 255, 255)', display: 'block' });
    const input = dialog.getByRole('textbox', { name: 'Message' });
    expect(await input.evaluate((node) => getComputedStyle(node).fontSize)).toBe('15px');
    const dialogBox = (await dialog.boundingBox())!;
    expect(dialogBox.width).toBe(380);

    const { request } = await sendMessage(page, 'When does the harbour museum open?');
    expect(request).toMatchObject({ trigger: 'submit-message', modelMode: 'expert' });
    expect(request.messages).toHaveLength(1);
    const reply = log.locator('.msg.bot').last();
    expect(await reply.textContent()).toMatch(/opens at nine in the morning/);
    const citation = reply.locator('summary').first();
    // The citation names the document and its section (the heading path), not a chunk and line.
    expect(await citation.textContent()).toBe('[1] museum.md › Harbour museum › Opening hours');
    const passage = reply.locator('blockquote').first();
    expect(await passage.isVisible()).toBe(false);
    await citation.click();
    expect(await passage.isVisible()).toBe(true);
    expect(await passage.textContent()).toMatch(/opens at nine/);
    await screenshot(page, 'widget-desktop');

    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(false);
    expect(await focusedInWidget(page)).toBe('Open chat');
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');

    // Keyboard only: Enter on the launcher opens, Enter in the box sends.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await focusedInWidget(page)).toBe('message');
    await page.context().close();
  });

  it('continues the conversation after a reload, sending it as the history', async () => {
    const page = await openHost(DESKTOP);
    await page.getByRole('button', { name: 'Open chat' }).click();
    const first = await sendMessage(page, 'How much is a ticket?');
    await page.reload();
    await page.getByRole('button', { name: 'Open chat' }).click();
    const log = page.getByRole('dialog', { name: /Chat/ }).getByRole('log');
    expect(await log.textContent()).toContain('How much is a ticket?');
    expect(await log.textContent()).toMatch(/five euros/);
    const second = await sendMessage(page, 'And for children?');
    expect(second.request.id).toBe(first.request.id);
    expect(second.request.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    expect(await log.locator('.msg.bot').last().textContent()).toMatch(/free for children/);

    await page.getByRole('button', { name: 'New conversation' }).click();
    expect(await log.locator('.msg').count()).toBe(1);
    const fresh = await sendMessage(page, 'When does it close?');
    expect(fresh.request.id).not.toBe(first.request.id);
    expect(fresh.request.messages).toHaveLength(1);
    await page.context().close();
  });

  it('renders Markdown safely: no HTML from the reply, only http(s) links', async () => {
    const page = await openHost(DESKTOP);
    await page.evaluate(() => {
      (window as unknown as { pwned: number }).pwned = 0;
    });
    const evil = [
      '**Bold** and `code` <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script>',
      '',
      '- one [safe](https://example.com/a) link',
      '- a [bad](javascript:window.pwned=3) one',
      '',
      '```',
      '<b>not bold</b>',
      '```',
    ].join('\n');
    const chunks = [
      { type: 'start', messageId: 'm1' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: evil },
      { type: 'text-end', id: 't1' },
      {
        type: 'source-document',
        sourceId: 'source-1',
        mediaType: 'text/plain',
        title: '<img src=x onerror="window.pwned=4">',
        providerMetadata: { ngram: { text: '<svg onload="window.pwned=5">' } },
      },
      { type: 'finish', finishReason: 'stop' },
    ];
    await page.route(`${service.url}/api/ui/chat`, (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' },
        body: `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`,
      }),
    );
    await page.getByRole('button', { name: 'Open chat' }).click();
    await sendMessage(page, 'Show me something');
    const reply = page.getByRole('log').locator('.msg.bot').last();
    await reply.locator('summary').click();
    expect(await reply.locator('img, script, svg, b').count()).toBe(0);
    expect(await reply.locator('strong').textContent()).toBe('Bold');
    expect(await reply.locator('code').first().textContent()).toBe('code');
    expect(await reply.textContent()).toContain('<img src=x onerror="window.pwned=1">');
    expect(await reply.locator('pre').textContent()).toBe('<b>not bold</b>');
    const links = reply.locator('a');
    expect(await links.count()).toBe(1);
    expect(await links.getAttribute('href')).toBe('https://example.com/a');
    expect(await links.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await reply.locator('summary').textContent()).toBe('[1] <img src=x onerror="window.pwned=4">');
    expect(await page.evaluate(() => (window as unknown as { pwned: number }).pwned)).toBe(0);
    await page.context().close();
  });

  it('never restyles the host page', async () => {
    const snapshot = (page: Page) =>
      page.evaluate(() =>
        ['host-heading', 'host-text', 'host-button'].map((id) => {
          const style = getComputedStyle(document.getElementById(id)!);
          return [id, style.fontSize, style.color, style.fontFamily, style.display, style.margin];
        }),
      );
    const without = await openHost(DESKTOP, '?widget=off');
    const before = await snapshot(without);
    const sheetsBefore = await without.evaluate(() => document.styleSheets.length);
    await without.context().close();
    const page = await openHost(DESKTOP);
    await page.getByRole('button', { name: 'Open chat' }).click();
    expect(await snapshot(page)).toEqual(before);
    expect(await page.evaluate(() => document.styleSheets.length)).toBe(sheetsBefore);
    expect(await page.evaluate(() => document.body.lastElementChild?.tagName.toLowerCase())).toBe(
      'ngram-chat-widget',
    );
    await page.context().close();
  });

  it('fills a 390 px phone screen, keeps the box and Send in view, and closes with its button', async () => {
    const page = await openHost(PHONE, '?position=left&title=Museum%20help');
    const launcher = page.getByRole('button', { name: 'Open chat' });
    expect((await launcher.boundingBox())!.x).toBeLessThan(40);
    await launcher.click();
    const dialog = page.getByRole('dialog', { name: 'Museum help — Chat' });
    await dialog.waitFor();
    expect(await dialog.boundingBox()).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    await sendMessage(page, 'When does the museum close?');
    for (const control of [
      dialog.getByRole('textbox', { name: 'Message' }),
      dialog.getByRole('button', { name: 'Send' }),
      dialog.getByRole('button', { name: 'Close chat' }),
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(box.height).toBeGreaterThanOrEqual(36);
    }
    expect(await dialog.getByRole('log').textContent()).toMatch(/six in the evening/);
    await screenshot(page, 'widget-phone');
    await dialog.getByRole('button', { name: 'Close chat' }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect(await focusedInWidget(page)).toBe('Open chat');
    await screenshot(page, 'widget-phone-closed');
    await page.context().close();
  });

  it('ran without console errors', () => {
    expect(problems).toEqual([]);
  });
});
