import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPage } from '../../scripts/build-page.js';
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
const OWNER = 'owner@example.com';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
const artifacts = resolve(import.meta.dirname, '../../test-artifacts');

const GUIDE = `# Harbour museum

## Opening hours

The harbour museum opens at nine in the morning and closes at six in the evening every day.

## Buying tickets online

A ticket to the harbour museum costs five euros for adults and is free for children; buy it online.

## Reset your password

To reset your museum account password, open the account page and choose "Forgot password".`;

let service: RunningServer;
let host: Server;
let hostUrl: string;
let browser: Browser;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'owner-e2e-data-'));

function hostPage(search: URLSearchParams): string {
  const starters = search.get('starters');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Docs</title></head>
<body><h1>Museum docs</h1>
<script src="${service.url}/widget.js" defer data-title="Ask the museum"${starters ? ` data-starters="${starters}"` : ''}></script>
</body></html>`;
}

async function watch(page: Page): Promise<Page> {
  page.on('console', (message) => {
    // GET /api/admin/documents comes with the documents issue; until then the owner view says so.
    const documentsMissing = message.location().url.includes('/api/admin/documents');
    if (message.type() === 'error' && !documentsMissing) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return page;
}

async function openWidget(query = ''): Promise<Page> {
  const page = await watch(await browser.newPage({ viewport: DESKTOP }));
  await page.goto(`${hostUrl}/${query}`);
  await page.getByRole('button', { name: 'Open chat' }).click();
  return page;
}

async function widgetAsk(page: Page, text: string) {
  const dialog = page.getByRole('dialog', { name: /Chat/ });
  await dialog.getByRole('textbox', { name: 'Message' }).fill(text);
  const [response] = await Promise.all([
    page.waitForResponse((candidate) => candidate.url() === `${service.url}/api/ui/chat`),
    dialog.getByRole('button', { name: 'Send' }).click(),
  ]);
  await response.finished();
  await page.waitForFunction(() => {
    const log = document.querySelector('ngram-chat-widget')?.shadowRoot?.querySelector('[role="log"]');
    return log != null && !log.hasAttribute('aria-busy');
  });
  return dialog.getByRole('log').locator('.msg.bot').last();
}

async function openChatPage(viewport = DESKTOP): Promise<Page> {
  const page = await watch(await browser.newPage({ viewport }));
  await page.goto(`${service.url}/`);
  await page.locator('#vocab').waitFor();
  return page;
}

async function pageAsk(page: Page, text: string) {
  await page.fill('#message', text);
  await Promise.all([
    page.waitForResponse((candidate) => new URL(candidate.url()).pathname === '/api/chat'),
    page.press('#message', 'Enter'),
  ]);
  const reply = page.locator('[data-testid="reply"]').last();
  await reply.and(page.locator(':not(.streaming)')).waitFor();
  return reply;
}

async function ownerList(kind: string) {
  const response = await fetch(`${service.url}/api/admin/questions?kind=${kind}`, {
    headers: { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()).questions as Array<Record<string, unknown>>;
}

async function screenshot(page: Page, name: string) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, `${name}.png`) });
}

beforeAll(async () => {
  await buildPage();
  service = await startLocalServer({
    DATA_DIR: dataDir,
    STARTER_TEXT: 'off',
    OWNER_EMAIL: OWNER,
    ADMIN_TOKEN,
  });
  const trained = await fetch(`${service.url}/api/train`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ text: GUIDE, format: 'markdown', name: 'museum.md' }),
  });
  expect(trained.status).toBe(200);
  const port = await freePort();
  host = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(hostPage(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams));
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

describe('the widget for visitors', () => {
  it('shows up to three starter questions from /api/suggestions, and data-starters instead when given', async () => {
    const page = await openWidget();
    const starters = page.getByRole('group', { name: 'Questions to start with' }).getByRole('button');
    await starters.first().waitFor();
    const shown = await starters.allTextContents();
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(shown.length).toBeLessThanOrEqual(3);
    expect(shown).toContain('What are the opening hours?');
    const reply = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === `${service.url}/api/ui/chat`),
      starters.filter({ hasText: 'What are the opening hours?' }).click(),
    ]);
    await reply[0].finished();
    await page.context().close();

    const own = await openWidget('?starters=Where%20is%20the%20cafe%3F|How%20do%20I%20get%20there%3F|A|B|C');
    const ownStarters = own.getByRole('group', { name: 'Questions to start with' }).getByRole('button');
    await ownStarters.first().waitFor();
    expect(await ownStarters.allTextContents()).toEqual([
      'Where is the cafe?',
      'How do I get there?',
      'A',
      'B',
    ]);
    await own.context().close();
  });

  it('records a thumbs down with its comment, which the owner then sees under disliked', async () => {
    const page = await openWidget();
    const reply = await widgetAsk(page, 'When does the harbour museum close?');
    expect(await reply.textContent()).toMatch(/six in the evening/);
    const citation = reply.locator('summary').first();
    expect(await citation.textContent()).toBe('[1] museum.md › Harbour museum › Opening hours');
    await reply.getByRole('button', { name: 'Not helpful' }).click();
    await reply.getByRole('textbox', { name: /What was wrong/ }).fill('It should say <b>Sundays</b> too.');
    const [feedback] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === `${service.url}/api/feedback`),
      reply.getByRole('button', { name: 'Send feedback' }).click(),
    ]);
    expect(feedback.status()).toBe(200);
    await reply.getByRole('status').filter({ hasText: 'Thanks' }).waitFor();
    expect(await reply.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const disliked = await ownerList('disliked');
    expect(disliked).toHaveLength(1);
    expect(disliked[0]).toMatchObject({
      question: 'When does the harbour museum close?',
      down: 1,
      comments: ['It should say <b>Sundays</b> too.'],
    });
    expect(disliked[0].reply).toMatch(/six in the evening/);
    await screenshot(page, 'widget-thumbs-down');
    await page.context().close();
  });

  it('links a citation that has a url as "title › section", opening in a new tab', async () => {
    const page = await openWidget();
    const chunks = [
      { type: 'start', messageId: 'm1' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'It opens at nine. [1]' },
      { type: 'text-end', id: 't1' },
      {
        type: 'source-document',
        sourceId: 'source-1',
        mediaType: 'text/plain',
        title: 'museum.md — Harbour museum > Opening hours',
        providerMetadata: {
          ngram: {
            title: 'museum.md',
            section: 'Harbour museum > Opening hours',
            url: 'https://docs.example.org/museum#opening-hours',
            text: 'The harbour museum opens at nine.',
          },
        },
      },
      {
        type: 'finish',
        finishReason: 'stop',
        messageMetadata: { replyId: 'reply-0123456789abcdef0123456789abcdef' },
      },
    ];
    await page.route(`${service.url}/api/ui/chat`, (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' },
        body: `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`,
      }),
    );
    const reply = await widgetAsk(page, 'When does it open?');
    const link = reply.locator('.sources a');
    expect(await link.textContent()).toBe('museum.md › Harbour museum › Opening hours');
    expect(await link.getAttribute('href')).toBe('https://docs.example.org/museum#opening-hours');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener');
    await page.context().close();
  });
});

describe('the chat page', () => {
  it('records a thumbs up on a reply', async () => {
    const page = await openChatPage();
    const reply = await pageAsk(page, 'How much does a ticket to the harbour museum cost?');
    expect(await reply.textContent()).toMatch(/five euros/);
    const [feedback] = await Promise.all([
      page.waitForResponse((candidate) => new URL(candidate.url()).pathname === '/api/feedback'),
      reply.getByRole('button', { name: 'Helpful', exact: true }).click(),
    ]);
    expect(feedback.status()).toBe(200);
    // The page marks the button once it has read the answer, a moment after the response arrives.
    await expect
      .poll(() => reply.getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    const top = await ownerList('top');
    const entry = top.find((item) => item.question === 'How much does a ticket to the harbour museum cost?');
    expect(entry).toMatchObject({ count: 1, up: 1, down: 0 });
    await page.close();
  });

  it('links a citation with a url, with the url as its href', async () => {
    const page = await openChatPage();
    const done = {
      response: 'It opens at nine. [1]',
      usedExternal: false,
      vocabSize: 10,
      sources: [
        {
          text: 'The harbour museum opens at nine.',
          score: 3.2,
          ref: { chunk: 1, line: 3 },
          file: 'museum.md',
          title: 'museum.md',
          section: 'Harbour museum > Opening hours',
          url: 'https://docs.example.org/museum#opening-hours',
        },
      ],
    };
    await page.route(`${service.url}/api/chat`, (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: `event: delta\ndata: ${JSON.stringify({ text: done.response })}\n\nevent: done\ndata: ${JSON.stringify(done)}\n\n`,
      }),
    );
    const reply = await pageAsk(page, 'When does it open?');
    const link = reply.locator('[data-testid="source"] a.where');
    expect(await link.textContent()).toBe('museum.md › Harbour museum › Opening hours');
    expect(await link.getAttribute('href')).toBe('https://docs.example.org/museum#opening-hours');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener');
    await page.close();
  });

  it("lists unanswered questions in the owner view, a visitor's <script> as text that never runs", async () => {
    const page = await openChatPage();
    await page.evaluate(() => {
      (window as unknown as { pwned: number }).pwned = 0;
    });
    const hostile = 'Who won <script>window.pwned=1</script><img src=x onerror="window.pwned=2"> in 1998?';
    for (const question of ['What is the capital of Brazil?', hostile]) {
      const reply = await pageAsk(page, question);
      expect(await reply.textContent()).toMatch(/Sorry, I can't answer that/);
      expect(await reply.textContent()).not.toMatch(/\/api\/|npm run/);
    }
    await page.click('#open-owner');
    await page.fill('#owner-email', OWNER);
    await page.fill('#owner-token', ADMIN_TOKEN);
    await page.click('#owner-login button[type="submit"]');
    const rows = page.locator('[data-testid="owner-question"]');
    await rows.first().waitFor();
    expect(await page.isVisible('#owner-login')).toBe(false);
    const questions = await rows.locator('.owner-q').allTextContents();
    expect(questions).toContain('What is the capital of Brazil?');
    expect(questions).toContain(hostile);
    expect(await page.locator('#owner-questions script, #owner-questions img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned: number }).pwned)).toBe(0);
    expect(await page.locator('#owner-chart svg rect').count()).toBeGreaterThan(0);
    // The token lives in this tab's sessionStorage only.
    const stored = await page.evaluate(() => ({
      session: sessionStorage.getItem('chat.owner'),
      local: JSON.stringify(localStorage),
    }));
    expect(stored.session).toContain(OWNER);
    expect(stored.local).not.toContain(ADMIN_TOKEN);
    await page.locator('#owner-documents').filter({ hasText: /./ }).waitFor();
    await screenshot(page, 'chat-page-owner-view');
    await page.close();
  });

  it('fits a 390 × 844 phone: nothing clipped, no sideways scrolling', async () => {
    const page = await openChatPage(PHONE);
    const reply = await pageAsk(page, 'When does the harbour museum open?');
    await reply.locator('[data-testid="source"] summary').first().click();
    const outside = async (selector: string) =>
      page.locator(selector).evaluateAll((nodes) =>
        nodes
          .filter((node) => (node as HTMLElement).offsetParent !== null)
          .map((node) => ({
            node: (node as HTMLElement).outerHTML.slice(0, 80),
            right: node.getBoundingClientRect().right,
          }))
          .filter((box) => box.right > window.innerWidth + 0.5),
      );
    expect(await outside('.top-bar, .top-bar *')).toEqual([]);
    expect(await outside('[data-testid="source"], [data-testid="source"] summary > *')).toEqual([]);
    expect(await outside('.rate, .rate *')).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await screenshot(page, 'chat-page-phone-sources');
    await page.click('#open-owner');
    await page.fill('#owner-email', OWNER);
    await page.fill('#owner-token', ADMIN_TOKEN);
    await page.click('#owner-login button[type="submit"]');
    await page.locator('[data-testid="owner-question"]').first().waitFor();
    expect(await outside('#owner *')).toEqual([]);
    await screenshot(page, 'chat-page-phone-owner');
    await page.close();
  });

  it('raised no console errors, page errors or CSP violations', () => {
    expect(problems).toEqual([]);
  });
});
