import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page, type Response } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { type OpenAIStandin, startOpenAIStandin } from '../support/openai-standin.js';
import { freePort } from '../support/redis-server.js';
import { startWikipediaStandin, type WikipediaStandin } from '../support/wikipedia-standin.js';

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
const SESSION_LIMIT = 3;
const RATE_LIMIT = 30;
const artifacts = resolve(import.meta.dirname, '../../test-artifacts');

const TRAINING_TEXT =
  'The sun rises over the quiet hills. Light falls on the green leaves and the leaves turn light into food. ' +
  'Plants need water, light and air. The river runs past the old mill and the miller grinds the grain.';

let server: RunningServer;
let wikipedia: WikipediaStandin;
let external: OpenAIStandin;
let context: BrowserContext;
let page: Page;
let api: string;
const pageErrors: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'playground-e2e-data-'));
const profileDir = mkdtempSync(join(tmpdir(), 'playground-e2e-profile-'));

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}. Install the Debian package: apt-get install -y chromium ` +
        '(this test never downloads a browser).',
    );
  }
  for (const name of ['playground.png', 'playground-variant-b.png', 'playground-failure.png']) {
    rmSync(join(artifacts, name), { force: true });
  }
  wikipedia = await startWikipediaStandin();
  external = await startOpenAIStandin();
  external.setBehaviour('ok-with-reasoning');
  server = await startLocalServer({
    DATA_DIR: dataDir,
    SESSION_LIMIT_FREE: String(SESSION_LIMIT),
    RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
    WIKIPEDIA_BASE_URL: wikipedia.baseUrl,
    LLM_BASE_URL: external.baseUrl,
    LLM_MODEL: 'standin-chat',
  });
  // The page is loaded from localhost and calls 127.0.0.1: every call is cross-origin, so CORS
  // (preflight included) is exercised as it is against a deployment on another origin.
  api = `${server.url}/api`;
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    headless: true,
    viewport: { width: 1100, height: 900 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, 60_000);

afterAll(async () => {
  if (page && !existsSync(join(artifacts, 'playground.png'))) {
    mkdirSync(artifacts, { recursive: true });
    await page
      .screenshot({ path: join(artifacts, 'playground-failure.png'), fullPage: true })
      .catch(() => {});
  }
  await context?.close();
  await server?.stop();
  await wikipedia?.close();
  await external?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(profileDir, { recursive: true, force: true });
});

/** Waits until the element's text matches, and returns the text; the error says what it was instead. */
async function textOf(selector: string, pattern: RegExp, timeout = 10_000): Promise<string> {
  try {
    const handle = await page.waitForFunction(
      ({ selector, source, flags }) => {
        const text = document.querySelector(selector)?.textContent ?? '';
        return new RegExp(source, flags).test(text) ? text : false;
      },
      { selector, source: pattern.source, flags: pattern.flags },
      { timeout },
    );
    return (await handle.jsonValue()) as string;
  } catch {
    const now = await page
      .locator(selector)
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => null);
    throw new Error(`${selector} never matched ${pattern}; its text is ${JSON.stringify(now)}`);
  }
}

/** Clicks `selector` and returns the response of the request `METHOD <api><path>` it causes. */
async function clickFor(selector: string, method: string, path: string): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (candidate) => candidate.url() === `${api}${path}` && candidate.request().method() === method,
    ),
    page.click(selector),
  ]);
  return response;
}

async function sendA(message: string): Promise<{ response: Response; body: Record<string, unknown> }> {
  await page.fill('#a-message', message);
  const response = await clickFor('#a-send', 'POST', '/chat');
  const body = (await response.json()) as Record<string, unknown>;
  await page.locator('#a-send:not([disabled])').waitFor();
  return { response, body };
}

async function pngImage(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: '#2a7ab0' } })
    .png()
    .toBuffer();
}

describe('the playground in headless Chromium', { timeout: 60_000 }, () => {
  it('loads from / with the default base URL and reports the service healthy', async () => {
    const pageUrl = server.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${pageUrl}/`);
    expect(await page.inputValue('#base-url')).toBe(`${pageUrl}/api`);
    await textOf('#health', /Service ok · vocabulary \d+ words · store embedded/);
  });

  it('keeps a base URL on another origin across reloads and calls it through CORS', async () => {
    await page.fill('#base-url', `${api}/`);
    await page.click('#base-url-apply');
    await textOf('#health', /Service ok/);
    await page.reload();
    expect(await page.inputValue('#base-url')).toBe(api);
    await textOf('#health', /Service ok · vocabulary \d+ words/);
    expect(await page.getAttribute('#openapi-link', 'href')).toBe(`${api}/openapi.json`);
  });

  it('trains the model on pasted text and shows the new vocabulary size', async () => {
    await page.fill('#train-text', TRAINING_TEXT);
    const response = await clickFor('#train-submit', 'POST', '/train');
    expect(response.status()).toBe(200);
    const { vocabSize } = (await response.json()) as { vocabSize: number };
    expect(vocabSize).toBeGreaterThan(10);
    await textOf(
      '#train-result',
      new RegExp(`Learnt \\d+ tokens\\. The vocabulary now has ${vocabSize} words\\.`),
    );
    await textOf('#a-vocab', new RegExp(`^${vocabSize}$`));
    await textOf('#health-vocab', new RegExp(`^${vocabSize}$`));
  });

  it('uploads an image through /api/upload and attaches it to the next message', async () => {
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === `${api}/upload`),
      page.setInputFiles('#a-image', { name: 'blue.png', mimeType: 'image/png', buffer: await pngImage() }),
    ]);
    expect(response.status()).toBe(200);
    await textOf('#a-image-status', /blue\.png attached \(40×30\)/);
    expect(await page.isVisible('#a-image-preview')).toBe(true);
  });

  it('chats in instant mode, raw, with the image and the chosen temperature and length', async () => {
    await page.selectOption('#a-mode', 'instant');
    await page.check('#a-raw');
    await page.fill('#a-temperature', '0.3');
    await page.fill('#a-max-tokens', '60');
    const { response, body } = await sendA('What do plants need?');
    expect(response.status()).toBe(200);
    const sent = response.request().postDataJSON();
    expect(sent).toMatchObject({ modelMode: 'instant', raw: true, temperature: 0.3, maxTokens: 60 });
    expect(sent.imageBase64).toMatch(/^data:image\/png;base64,/);
    expect(body.usedExternal).toBe(false);

    const reply = page.locator('[data-testid="a-reply"]').last();
    expect(await reply.getAttribute('data-mode')).toBe('instant');
    expect(await reply.locator('.text').textContent()).toBe(body.response);
    expect(await reply.locator('[data-testid="a-external"]').count()).toBe(0);
    await textOf('#a-log', /with image blue\.png/);
    await textOf('#a-remaining', new RegExp(`^${SESSION_LIMIT - 1} of ${SESSION_LIMIT} messages left`));
    expect(await page.isVisible('#a-image-preview')).toBe(false);
  });

  it.each(['expert', 'apex'] as const)(
    'chats in %s mode, with the thought collapsed and the badge when the external model helped',
    async (mode) => {
      await page.selectOption('#a-mode', mode);
      await page.uncheck('#a-raw');
      const { response, body } = await sendA(`Tell me about light, in ${mode} mode.`);
      expect(response.status()).toBe(200);
      expect(response.request().postDataJSON()).not.toHaveProperty('raw');

      const reply = page.locator('[data-testid="a-reply"]').last();
      expect(await reply.getAttribute('data-mode')).toBe(mode);
      expect(await reply.locator('.text').textContent()).toBe(body.response);
      // The badge shows exactly when the reply says the external model helped; apex asks it.
      expect(await reply.locator('[data-testid="a-external"]').isVisible()).toBe(body.usedExternal);
      if (mode === 'apex') expect(body.usedExternal, JSON.stringify(body)).toBe(true);
      expect(typeof body.thought).toBe('string');
      const thought = reply.locator('[data-testid="a-thought"]');
      expect(await thought.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
      expect(await thought.locator('p').isVisible()).toBe(false);
      await thought.locator('summary').click();
      expect(await thought.locator('p').textContent()).toBe(body.thought);
      await textOf('#a-vocab', new RegExp(`^${body.vocabSize}$`));
    },
  );

  it('says so in words when the session has used its allowance, and a new session goes on', async () => {
    await textOf('#a-remaining', new RegExp(`^0 of ${SESSION_LIMIT} messages left`));
    const { response } = await sendA('One more, please.');
    expect(response.status()).toBe(429);
    await textOf('#a-error', new RegExp(`^This session has used all its ${SESSION_LIMIT} messages`));

    const spent = await page.inputValue('#session-id');
    await page.click('#new-session');
    expect(await page.inputValue('#session-id')).not.toBe(spent);
    const again = await sendA('Hello again.');
    expect(again.response.status()).toBe(200);
    expect(await page.textContent('#a-error')).toBe('');
    await textOf('#a-remaining', new RegExp(`^${SESSION_LIMIT - 1} of ${SESSION_LIMIT} messages left`));
  });

  it('says in words that a file is not an image (415) or too large (413)', async () => {
    await page.setInputFiles('#a-image', {
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('these are notes, not pixels'),
    });
    await textOf('#a-error', /^That file is not an image we can read$/);
    await page.setInputFiles('#a-image', {
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(5 * 1024 * 1024 + 1024, 1),
    });
    await textOf('#a-error', /^That file is too large \(max 5 MB\)$/);
    expect(await page.isVisible('#a-image-preview')).toBe(false);
  });

  it.each([
    ['standard', 'How do plants make food?'],
    ['think', 'Why is the sky blue?'],
    ['deep_think', 'Should a city plant more trees?'],
  ] as const)('chats in Variant B %s mode, sending the history kept in the page', async (mode, message) => {
    await page.click('#tab-b');
    expect(await page.isVisible('#panel-a')).toBe(false);
    const before = await page.locator('[data-testid="b-reply"]').count();
    await page.selectOption('#b-mode', mode);
    await page.fill('#b-message', message);
    const response = await clickFor('#b-send', 'POST', '/api/chat');
    expect(response.status()).toBe(200);
    const sent = response.request().postDataJSON();
    expect(sent).toMatchObject({ message, mode });
    expect(sent.history).toHaveLength(before * 2);
    const body = (await response.json()) as { response: string; tokens: number };

    const reply = page.locator('[data-testid="b-reply"]').nth(before);
    await reply.waitFor();
    expect(await reply.getAttribute('data-mode')).toBe(mode);
    expect(await reply.locator('.text').textContent()).toBe(body.response);
    expect(await reply.locator('.who').textContent()).toContain(`${body.tokens} tokens`);
  });

  it('chats in Variant B www mode about Alan Turing and links the encyclopedia source', async () => {
    await page.selectOption('#b-mode', 'www');
    await page.fill('#b-message', 'Who was Alan Turing?');
    const response = await clickFor('#b-send', 'POST', '/api/chat');
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { source: { title: string; url: string } };
    expect(body.source.title).toBe('Alan Turing');

    const link = page.locator('[data-testid="b-reply"]').last().locator('[data-testid="b-source"]');
    expect(await link.textContent()).toBe('Alan Turing');
    expect(await link.getAttribute('href')).toBe(body.source.url);
    expect(await link.getAttribute('rel')).toContain('noopener');
    expect(wikipedia.requests.some((request) => request.pathname.includes('Alan_Turing'))).toBe(true);
  });

  it('says it cannot reach the service when the base URL points nowhere', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}/api`;
    await page.fill('#base-url', nowhere);
    await page.click('#base-url-apply');
    await textOf('#health', new RegExp(`^Cannot reach the service at ${nowhere.replace(/[./]/g, '\\$&')}$`));
    await page.fill('#b-message', 'Anyone there?');
    await page.click('#b-send');
    await textOf('#b-error', /^Cannot reach the service at /);
    await page.fill('#base-url', api);
    await page.click('#base-url-apply');
    await textOf('#health', /Service ok/);
  });

  it('says how long to wait when the address is rate-limited (429 with Retry-After)', async () => {
    let message = '';
    for (let attempt = 0; attempt <= RATE_LIMIT && !message; attempt++) {
      await page.fill('#train-text', `Attempt ${attempt} of a burst of training.`);
      await clickFor('#train-submit', 'POST', '/train');
      await page.locator('#train-submit:not([disabled])').waitFor();
      message = (await page.textContent('#train-error')) ?? '';
    }
    expect(message).toMatch(/^Too many requests — try again in \d+ s$/);
  });

  it('keeps a screenshot as a test artifact, with no script errors on the way', async () => {
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'playground-variant-b.png'), fullPage: true });
    await page.click('#tab-a');
    await page.screenshot({ path: join(artifacts, 'playground.png'), fullPage: true });
    expect(existsSync(join(artifacts, 'playground.png'))).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
