import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_LIMITS, readBounded, readWorkersStarted } from '../../lib/documents/index.js';
import { HttpError } from '../../lib/http/index.js';
import { manyPagesPdf } from './hostile-files.js';
import { tinyPdf } from './tiny-pdf.js';

describe('readBounded', () => {
  it('stops a read at its deadline with 422 naming DOCUMENT_READ_TIMEOUT_MS', async () => {
    const started = Date.now();
    const error = await readBounded(
      { kind: 'pdf', bytes: manyPagesPdf(1500) },
      {
        ...DEFAULT_READ_LIMITS,
        timeoutMs: 300,
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 422, extra: { limit: 'DOCUMENT_READ_TIMEOUT_MS', max: 300 } });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reads a PDF within the bounds, and the next read after a stopped one', async () => {
    const text = await readBounded(
      { kind: 'pdf', bytes: tinyPdf([['Fjords are deep.']]) },
      DEFAULT_READ_LIMITS,
    );
    expect(text).toContain('Fjords are deep.');
  });

  it('holds a PDF to MAX_PDF_PAGES as configured', async () => {
    const error = await readBounded(
      { kind: 'pdf', bytes: manyPagesPdf(12) },
      {
        ...DEFAULT_READ_LIMITS,
        maxPdfPages: 10,
      },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 413, extra: { limit: 'MAX_PDF_PAGES', found: 12, max: 10 } });
  });

  it('checks Markdown and HTML nesting against MAX_NESTING as configured', async () => {
    const limits = { ...DEFAULT_READ_LIMITS, maxNesting: 8 };
    const list = Array.from({ length: 12 }, (_, level) => `${'  '.repeat(level)}- item ${level}`).join('\n');
    await expect(readBounded({ kind: 'text', format: 'markdown', text: list }, limits)).rejects.toMatchObject(
      {
        status: 422,
        extra: { limit: 'MAX_NESTING', max: 8 },
      },
    );
    const shallow = '<div><div><p>fine</p></div></div>';
    expect(await readBounded({ kind: 'text', format: 'html', text: shallow }, limits)).toBe(shallow);
  });

  it('refuses Markdown within MAX_NESTING whose depth over its length would take too long to read', async () => {
    const line = `${'- '.repeat(250)}x\n`;
    const text = line.repeat(Math.floor(1_000_000 / line.length));
    await expect(
      readBounded({ kind: 'text', format: 'markdown', text }, DEFAULT_READ_LIMITS),
    ).rejects.toMatchObject({
      status: 422,
      extra: { limit: 'MAX_NESTING', found: 250, max: 256 },
    });
  });

  it('reads one document at a time and answers 503 with Retry-After past 8 waiting', async () => {
    const limits = { ...DEFAULT_READ_LIMITS, timeoutMs: 300 };
    const bytes = manyPagesPdf(1500);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        readBounded({ kind: 'pdf', bytes }, limits).catch((e: HttpError) => e),
      ),
    );
    const statuses = outcomes.map((outcome) => (outcome as HttpError).status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(8);
    expect(statuses.filter((status) => status === 503)).toHaveLength(2);
    const busy = outcomes.find((outcome) => (outcome as HttpError).status === 503) as HttpError;
    expect(busy).toMatchObject({ code: 'reader_busy', headers: { 'Retry-After': '5' } });
  });
});

describe('the read worker', () => {
  const page = (n: number) => ({
    kind: 'text' as const,
    format: 'markdown' as const,
    text: `# Page ${n}\n\nText ${n}.\n`,
  });

  it('is kept between reads that went well, and started anew after a refusal or a deadline', async () => {
    await readBounded(page(1), DEFAULT_READ_LIMITS);
    const started = readWorkersStarted();
    for (let n = 2; n <= 6; n++) await readBounded(page(n), DEFAULT_READ_LIMITS);
    expect(readWorkersStarted()).toBe(started);

    // A refused document never shares its worker with the next read.
    const list = Array.from({ length: 12 }, (_, level) => `${'  '.repeat(level)}- item ${level}`).join('\n');
    await expect(
      readBounded(
        { kind: 'text', format: 'markdown', text: list },
        { ...DEFAULT_READ_LIMITS, maxNesting: 8 },
      ),
    ).rejects.toMatchObject({ status: 422 });
    await readBounded(page(7), DEFAULT_READ_LIMITS);
    expect(readWorkersStarted()).toBe(started + 1);

    // Nor does one stopped at its deadline.
    await expect(
      readBounded({ kind: 'pdf', bytes: manyPagesPdf(1500) }, { ...DEFAULT_READ_LIMITS, timeoutMs: 300 }),
    ).rejects.toMatchObject({ status: 422 });
    expect(await readBounded(page(8), DEFAULT_READ_LIMITS)).toContain('Text 8.');
    expect(readWorkersStarted()).toBe(started + 2);
  });
});
