import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'hostile-test-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A made-up address, different on every call. */
function randomAddress(): string {
  return Array.from({ length: 4 }, () => Math.floor(Math.random() * 256)).join('.');
}

/** Peak resident memory of a process so far, in MB (the kernel's high-water mark). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
  return Math.round(kilobytes / 1024);
}

describe('npm start against spoofed client addresses', () => {
  const LIMIT = 5;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startLocalServer({
      DATA_DIR: join(dataDir, 'spoof'),
      RATE_LIMIT_REQUESTS: String(LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: '3600',
    });
  });
  afterAll(() => server?.stop());

  it('counts the socket: 100 requests with made-up X-Real-IP and X-Forwarded-For past the limit get 429', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 100; index++) {
      const response = await fetch(`${server.url}/api/train`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-real-ip': randomAddress(),
          'x-forwarded-for': `${randomAddress()}, ${randomAddress()}`,
        },
        body: JSON.stringify({ text: `the spoofer says hello number ${index}` }),
      });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
    expect(statuses.slice(LIMIT)).toEqual(Array(100 - LIMIT).fill(429));
  });
});

describe('npm start against decompression bombs', () => {
  let server: RunningServer;
  let pid: number;
  /** A WebP of a few kilobytes declaring 7000×7000 pixels, with EXIF to strip (≈ 600 MB to re-encode). */
  let webpBomb: Buffer;
  beforeAll(async () => {
    // The two 7000×7000 WebPs are encoded while the server starts.
    const bomb = grey(7000, 7000)
      .webp({ quality: 1 })
      .withExif({ IFD0: { Artist: 'bomb' } })
      .toBuffer();
    const plain = plainWebp7000();
    server = await startLocalServer({ DATA_DIR: join(dataDir, 'bombs'), RATE_LIMIT_REQUESTS: '1000' });
    pid = server.child.pid!;
    webpBomb = await bomb;
    await plain;
  }, 120_000);
  afterAll(() => server?.stop());

  function grey(width: number, height: number) {
    return sharp({ create: { width, height, channels: 3, background: '#777777' } });
  }

  /**
   * The 7000×7000 WebP without metadata, encoded once for the two tests that upload it (about 5 s
   * of encoding each time). Every upload copies the bytes, so the tests share the same input.
   */
  let plainWebp: Promise<Buffer> | undefined;
  function plainWebp7000(): Promise<Buffer> {
    plainWebp ??= grey(7000, 7000).webp({ quality: 1 }).toBuffer();
    return plainWebp;
  }

  async function upload(
    bytes: Buffer,
    name: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const response = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('refuses a tiny WebP declaring 7000×7000 with metadata to strip, from its header, with a clear 413', async () => {
    expect(webpBomb.byteLength).toBeLessThan(200_000);
    const { status, body } = await upload(webpBomb, 'bomb.webp');
    expect(status).toBe(413);
    expect(body).toMatchObject({ code: 'payload_too_large' });
    expect(body.error).toMatch(/7000×7000 pixels; at most [\d.]+ megapixels are decoded for a WEBP/);
  });

  it('refuses a tiny PNG declaring 12000×12000 (144 megapixels) with 413', async () => {
    const bomb = await grey(12000, 12000).png({ compressionLevel: 9 }).toBuffer();
    const { status, body } = await upload(bomb, 'bomb.png');
    expect(status).toBe(413);
    expect(body.error).toMatch(/12000×12000 pixels; at most 50 megapixels/);
  });

  it('takes the same WebP without metadata, which it checks at a fraction of its size', async () => {
    const plain = await plainWebp7000();
    const { status, body } = await upload(plain, 'plain.webp');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ width: 7000, height: 7000, mimeType: 'image/webp' });
  }, 60_000);

  it('refuses the WebP bomb as imageBase64 in a chat message too', async () => {
    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'what is this?', imageBase64: webpBomb.toString('base64') }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('takes a 48-megapixel photo (8000×6000 JPEG)', async () => {
    const photo = await grey(8000, 6000).jpeg({ quality: 50 }).toBuffer();
    const { status, body } = await upload(photo, 'photo.jpg');
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ width: 8000, height: 6000, mimeType: 'image/jpeg' });
  }, 60_000);

  it('stays under 400 MB of memory with 8 parallel hostile uploads of the largest images it decodes', async () => {
    // The most expensive images still under their format's cap, each a few kilobytes.
    // Encoded side by side (the same bytes as one after another, in a third of the time).
    const images = await Promise.all([
      plainWebp7000(),
      grey(5750, 5750).png({ compressionLevel: 9, progressive: true }).toBuffer(),
      grey(4850, 4850).jpeg({ quality: 10, progressive: true }).toBuffer(),
      grey(7000, 7000).png({ compressionLevel: 9 }).toBuffer(),
      // Metadata to strip: decoded and re-encoded whole.
      grey(7000, 7000)
        .jpeg({ quality: 10 })
        .withExif({ IFD0: { Artist: 'bomb' } })
        .toBuffer(),
      grey(7000, 7000)
        .png({ compressionLevel: 9 })
        .withExif({ IFD0: { Artist: 'bomb' } })
        .toBuffer(),
      grey(3550, 3550)
        .webp({ quality: 1 })
        .withExif({ IFD0: { Artist: 'bomb' } })
        .toBuffer(),
      grey(2500, 2500).avif({ quality: 20, effort: 0 }).toBuffer(),
    ]);
    const results = await Promise.all(images.map((image, index) => upload(image, `hostile-${index}`)));
    expect(results.map((result) => result.status)).toEqual(Array(8).fill(200));
    const peak = peakRssMb(pid);
    console.log(`[hostile uploads] peak RSS of npm start: ${peak} MB`);
    expect(peak).toBeLessThan(400);
  }, 120_000);
});
