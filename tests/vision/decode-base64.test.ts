import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http/errors.js';
import { decodeImageBase64, inspectImage, MAX_IMAGE_BYTES } from '../../lib/vision/index.js';
import { solidImage, textFile } from './images.js';

function thrown(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('expected a throw');
}

describe('decodeImageBase64', () => {
  it('decodes plain base64, tolerating whitespace and line breaks', async () => {
    const png = await solidImage('png', 8, 8, '#00ff00');
    const wrapped = png.toString('base64').replace(/.{60}/g, '$&\r\n').concat('  \n');
    expect(Buffer.from(decodeImageBase64(wrapped)).equals(png)).toBe(true);
  });

  it('decodes a data: URL, whatever type it declares', async () => {
    const jpeg = await solidImage('jpeg', 8, 8, '#0000ff');
    const decoded = decodeImageBase64(`data:image/png;base64,${jpeg.toString('base64')}`);
    expect(Buffer.from(decoded).equals(jpeg)).toBe(true);
    expect((await inspectImage(decoded)).mimeType).toBe('image/jpeg');
  });

  it.each([
    ['characters outside base64', 'iVBORw0KGgo!!!'],
    ['a lone trailing character', 'QUJDR'],
    ['padding in the middle', 'QQ==QUJD'],
    ['an empty string', '   '],
    ['a data: URL that is not base64', 'data:image/png,%89PNG'],
  ])('rejects %s with 400', (_name, input) => {
    const error = thrown(() => decodeImageBase64(input));
    expect(error.status).toBe(400);
    expect(error.code).toBe('bad_request');
  });

  it('accepts exactly 5 MB and refuses one byte more with 413', () => {
    const exact = Buffer.alloc(MAX_IMAGE_BYTES, 7).toString('base64');
    expect(decodeImageBase64(exact).length).toBe(MAX_IMAGE_BYTES);
    const over = Buffer.alloc(MAX_IMAGE_BYTES + 1, 7).toString('base64');
    expect(decodeImageBase64(exact.replace(/.{76}/g, '$&\n')).length).toBe(MAX_IMAGE_BYTES);
    const error = thrown(() => decodeImageBase64(over));
    expect(error.status).toBe(413);
    expect(error.message).toContain('5 MB');
  });

  it('refuses a 50 MB string from its length alone, quickly', () => {
    const huge = `data:image/jpeg;base64,${'A'.repeat(50 * 1024 * 1024)}`;
    const started = performance.now();
    expect(thrown(() => decodeImageBase64(huge)).status).toBe(413);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('leaves "not an image" to inspectImage, which answers 415', async () => {
    const bytes = decodeImageBase64(textFile.toString('base64'));
    await expect(inspectImage(bytes)).rejects.toMatchObject({ status: 415 });
  });
});
