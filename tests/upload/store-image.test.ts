import { createHash } from 'node:crypto';
import sharp from 'sharp';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http/errors.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import {
  loadStoredImage,
  RESPONSE_BASE64_BUDGET,
  storeUploadedImage,
  uploadedImageSchema,
} from '../../lib/upload/index.js';
import { MAX_IMAGE_BYTES } from '../../lib/vision/index.js';
import { testRecognizer } from '../support/text-recognizer.js';
import {
  exifHasGps,
  jpegWithGps,
  noiseImage,
  pngOfExactSize,
  solidImage,
  textFile,
} from '../vision/images.js';

const options = {
  ttlSeconds: 3600,
  publicBaseUrl: 'https://chat.example.com/',
  recognizer: testRecognizer(),
};
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('storeUploadedImage', () => {
  it('stores the image under its SHA-256 with the TTL and returns its URL and base64', async () => {
    const store = createEmbeddedStore();
    const png = await solidImage('png', 64, 32, '#ff0000');
    const result = await storeUploadedImage(store, png, options);

    expect(v.is(uploadedImageSchema, result)).toBe(true);
    expect(result).toMatchObject({
      id: sha256(png),
      url: `https://chat.example.com/api/upload?id=${sha256(png)}`,
      mimeType: 'image/png',
      bytes: png.length,
      width: 64,
      height: 32,
      base64: png.toString('base64'),
      base64MimeType: 'image/png',
      base64Downscaled: false,
      metadataStripped: false,
      expiresInSeconds: 3600,
    });
    expect(await store.ttl(`image:${result.id}`)).toBeGreaterThan(3590);
    expect(await store.ttl(`image:${result.id}:type`)).toBeGreaterThan(3590);
  });

  it('gives the same image the same id', async () => {
    const store = createEmbeddedStore();
    const webp = await solidImage('webp', 16, 16, '#00ff00');
    const first = await storeUploadedImage(store, webp, options);
    const second = await storeUploadedImage(store, webp, options);
    expect(second.id).toBe(first.id);
    expect(await store.countKeys('image:')).toBe(3);
  });

  it('strips EXIF GPS from what it stores and returns, keeping the photo upright', async () => {
    const store = createEmbeddedStore();
    const result = await storeUploadedImage(store, await jpegWithGps(64, 48), options);
    expect(result).toMatchObject({ metadataStripped: true, width: 48, height: 64, mimeType: 'image/jpeg' });

    const stored = await loadStoredImage(store, result.id);
    for (const bytes of [stored!.bytes, Buffer.from(result.base64, 'base64')]) {
      const metadata = await sharp(bytes).metadata();
      expect(exifHasGps(metadata.exif)).toBe(false);
      expect(metadata.exif).toBeUndefined();
      expect({ width: metadata.width, height: metadata.height }).toEqual({ width: 48, height: 64 });
    }
    expect(result.id).toBe(sha256(stored!.bytes));
  });

  it('returns a downscaled JPEG when the original would push the response past the cap', async () => {
    const store = createEmbeddedStore();
    const png = await pngOfExactSize(MAX_IMAGE_BYTES);
    const result = await storeUploadedImage(store, png, options);

    expect(result).toMatchObject({
      bytes: MAX_IMAGE_BYTES,
      base64Downscaled: true,
      base64MimeType: 'image/jpeg',
    });
    expect(result.base64.length).toBeLessThanOrEqual(RESPONSE_BASE64_BUDGET);
    expect(JSON.stringify(result).length).toBeLessThan(4.5 * 1000 * 1000);
    expect((await sharp(Buffer.from(result.base64, 'base64')).metadata()).format).toBe('jpeg');
    const stored = await loadStoredImage(store, result.id);
    expect(Buffer.from(stored!.bytes).equals(png)).toBe(true);
  });

  it('keeps a large noisy PNG under the response cap by shrinking it', async () => {
    const png = await noiseImage('png', 1200, 1000);
    expect(png.length).toBeGreaterThan((RESPONSE_BASE64_BUDGET * 3) / 4);
    const result = await storeUploadedImage(createEmbeddedStore(), png, options);
    expect(result.base64Downscaled).toBe(true);
    expect(result.base64.length).toBeLessThanOrEqual(RESPONSE_BASE64_BUDGET);
    expect(result).toMatchObject({ width: 1200, height: 1000, bytes: png.length });
  });

  it('stores nothing when the bytes are not an image', async () => {
    const store = createEmbeddedStore();
    await expect(storeUploadedImage(store, textFile, options)).rejects.toMatchObject({ status: 415 });
    expect(await store.countKeys('image:')).toBe(0);
  });
});

describe('loadStoredImage', () => {
  it('returns undefined for an unknown id', async () => {
    expect(await loadStoredImage(createEmbeddedStore(), 'a'.repeat(64))).toBeUndefined();
  });

  it.each(['../etc/passwd', 'abc', 'A'.repeat(64), `${'a'.repeat(64)}:type`])(
    'refuses the malformed id %s with 400',
    async (id) => {
      const error = await loadStoredImage(createEmbeddedStore(), id).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(400);
    },
  );

  it('returns undefined once the TTL has passed', async () => {
    let now = Date.now();
    const store = createEmbeddedStore({ now: () => now });
    const result = await storeUploadedImage(store, await solidImage('gif', 8, 8, '#0000ff'), options);
    expect(await loadStoredImage(store, result.id)).toBeDefined();
    now += 3601 * 1000;
    expect(await loadStoredImage(store, result.id)).toBeUndefined();
  });
});
