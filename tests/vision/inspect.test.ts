import { describe, expect, it } from 'vitest';
import { inspectImage, MAX_IMAGE_BYTES } from '../../lib/vision/index.js';
import { rejection } from '../support/rejection.js';
import {
  animatedGif,
  jpegWithGps,
  noiseImage,
  pdfFile,
  pngClaiming,
  pngOfExactSize,
  solidImage,
  svgWithScript,
  textFile,
  writableFormats,
} from './images.js';

describe('inspectImage', () => {
  it.each(writableFormats)('accepts a %s and reports its size', async (format) => {
    const image = await inspectImage(await solidImage(format, 40, 30, '#ff8800'));
    expect(image).toMatchObject({ width: 40, height: 30, pages: 1, transparent: false });
    expect(image.mimeType).toBe(`image/${format}`);
  });

  it('reports the frames of an animated GIF and its frame height', async () => {
    expect(await inspectImage(await animatedGif(20, 10))).toMatchObject({
      mimeType: 'image/gif',
      width: 20,
      height: 10,
      pages: 3,
    });
  });

  it('reports the displayed size of a JPEG whose EXIF says rotate 90°', async () => {
    expect(await inspectImage(await jpegWithGps(64, 48))).toMatchObject({ width: 48, height: 64 });
  });

  it('tells a transparent PNG from an opaque one with an alpha channel', async () => {
    const clear = await solidImage('png', 10, 10, { r: 0, g: 0, b: 0, alpha: 0.5 }, 4);
    const opaque = await solidImage('png', 10, 10, { r: 0, g: 0, b: 0, alpha: 1 }, 4);
    expect(await inspectImage(clear)).toMatchObject({ hasAlpha: true, transparent: true });
    expect(await inspectImage(opaque)).toMatchObject({ hasAlpha: true, transparent: false });
  });

  it('accepts a PNG of exactly 5 MB', async () => {
    const bytes = await pngOfExactSize(MAX_IMAGE_BYTES);
    expect(bytes.length).toBe(MAX_IMAGE_BYTES);
    expect((await inspectImage(bytes)).mimeType).toBe('image/png');
  });

  it.each([
    ['an SVG carrying a script', svgWithScript],
    ['a text file', textFile],
    ['a PDF', pdfFile],
    ['empty input', new Uint8Array(0)],
  ])('rejects %s with 415', async (_name, bytes) => {
    const error = await rejection(inspectImage(bytes));
    expect(error.status).toBe(415);
    expect(error.code).toBe('unsupported_media_type');
  });

  it('rejects a HEIC it cannot decode with 415 naming HEIC', async () => {
    const ftyp = Buffer.alloc(24);
    ftyp.writeUInt32BE(24, 0);
    ftyp.write('ftypheic\0\0\0\0mif1heic', 4, 'latin1');
    const error = await rejection(inspectImage(Buffer.concat([ftyp, Buffer.alloc(64)])));
    expect(error.status).toBe(415);
    expect(error.message).toMatch(/HEIC/);
  });

  it.each([0.3, 0.6, 0.95])('rejects a JPEG truncated to %s of its length with 400', async (fraction) => {
    const jpeg = await noiseImage('jpeg', 120, 90);
    const error = await rejection(inspectImage(jpeg.subarray(0, Math.floor(jpeg.length * fraction))));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/truncated or corrupt/);
  });

  it.each(['png', 'gif', 'webp'] as const)('rejects a truncated %s with 400', async (format) => {
    const bytes = await noiseImage(format, 120, 90);
    const error = await rejection(inspectImage(bytes.subarray(0, Math.floor(bytes.length * 0.6))));
    expect(error.status).toBe(400);
  });

  it('rejects image magic followed by garbage with 400', async () => {
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 0x41)]);
    expect((await rejection(inspectImage(garbage))).status).toBe(400);
  });

  it('rejects an image claiming more pixels than the decode budget with 413, before decoding', async () => {
    const error = await rejection(inspectImage(pngClaiming(100_000, 100_000)));
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/100000×100000/);
  });
});
