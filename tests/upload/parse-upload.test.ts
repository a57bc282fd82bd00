import { describe, expect, it } from 'vitest';
import { parseImageUpload } from '../../lib/upload/index.js';
import { inspectImage, MAX_IMAGE_BYTES } from '../../lib/vision/index.js';
import { rejection } from '../support/rejection.js';
import { pngOfExactSize, solidImage, svgWithScript, textFile } from '../vision/images.js';
import { BOUNDARY, fileUpload, multipartBody, uploadRequest } from './multipart.js';

const options = { maxBytes: MAX_IMAGE_BYTES };

describe('parseImageUpload', () => {
  it('returns the bytes, file name and declared type of the file part', async () => {
    const png = await solidImage('png', 10, 10, '#123456');
    const upload = await parseImageUpload(fileUpload(png, 'dot.png', 'image/png'), options);
    expect(Buffer.from(upload.bytes).equals(png)).toBe(true);
    expect(upload).toMatchObject({ filename: 'dot.png', declaredType: 'image/png' });
  });

  it('reads a body built by FormData, as browsers send it', async () => {
    const jpeg = await solidImage('jpeg', 10, 10, '#654321');
    const form = new FormData();
    form.append('note', 'holiday');
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
    const upload = await parseImageUpload(
      new Request('http://127.0.0.1/api/upload', { method: 'POST', body: form }),
      options,
    );
    expect(Buffer.from(upload.bytes).equals(jpeg)).toBe(true);
  });

  it('ignores the name and declared type: a PNG named .jpg is a PNG', async () => {
    const png = await solidImage('png', 10, 10, '#abcdef');
    const upload = await parseImageUpload(fileUpload(png, 'photo.jpg', 'image/jpeg'), options);
    expect((await inspectImage(upload.bytes)).mimeType).toBe('image/png');
  });

  it('passes a text file named .png through, and inspectImage refuses it with 415', async () => {
    const upload = await parseImageUpload(fileUpload(textFile, 'notes.png', 'image/png'), options);
    expect((await rejection(inspectImage(upload.bytes))).status).toBe(415);
  });

  it('passes an SVG with a script through, and inspectImage refuses it with 415', async () => {
    const upload = await parseImageUpload(fileUpload(svgWithScript, 'logo.svg', 'image/svg+xml'), options);
    expect((await rejection(inspectImage(upload.bytes))).status).toBe(415);
  });

  it('accepts a file of exactly 5 MB', async () => {
    const png = await pngOfExactSize(MAX_IMAGE_BYTES);
    const upload = await parseImageUpload(fileUpload(png), options);
    expect(upload.bytes.length).toBe(MAX_IMAGE_BYTES);
    expect(Buffer.from(upload.bytes).equals(png)).toBe(true);
  });

  it('refuses 5 MB + 1 byte with 413 naming the cap', async () => {
    const error = await rejection(
      parseImageUpload(fileUpload(await pngOfExactSize(MAX_IMAGE_BYTES + 1)), options),
    );
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toContain('5 MB');
    expect(error.extra).toEqual({ limitBytes: MAX_IMAGE_BYTES });
  });

  it('stops reading an endless body once the file passes the cap', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(256 * 1024);
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\n\r\n`,
    );
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(pulled++ === 0 ? head : chunk);
      },
    });
    const error = await rejection(parseImageUpload(uploadRequest(body), options));
    expect(error.status).toBe(413);
    expect(pulled * chunk.length).toBeLessThan(MAX_IMAGE_BYTES * 1.5);
  });

  it('stops reading an endless text field too, counting the whole body', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(256 * 1024).fill(0x61);
    const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="caption"\r\n\r\n`);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(pulled++ === 0 ? head : chunk);
      },
    });
    expect((await rejection(parseImageUpload(uploadRequest(body), options))).status).toBe(413);
    expect(pulled * chunk.length).toBeLessThan(MAX_IMAGE_BYTES * 1.5);
  });

  it('refuses a declared Content-Length far past the cap before reading', async () => {
    const request = uploadRequest(new ReadableStream(), undefined, {
      'content-length': String(50 * 1024 * 1024),
    });
    expect((await rejection(parseImageUpload(request, options))).status).toBe(413);
  });

  it('refuses two file parts with 400', async () => {
    const png = await solidImage('png', 4, 4, '#000000');
    const body = multipartBody([
      { name: 'file', filename: 'a.png', type: 'image/png', data: png },
      { name: 'file', filename: 'b.png', type: 'image/png', data: png },
    ]);
    const error = await rejection(parseImageUpload(uploadRequest(body), options));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/exactly one file part named "file"/);
  });

  it('refuses an empty file part with 400', async () => {
    const body = multipartBody([{ name: 'file', filename: 'empty.png', type: 'image/png', data: '' }]);
    const error = await rejection(parseImageUpload(uploadRequest(body), options));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/empty/);
  });

  it.each([
    ['only a text field', [{ name: 'caption', data: 'hello' }]],
    ['a file under another name', [{ name: 'image', filename: 'a.png', data: 'x' }]],
    ['"file" as a text field', [{ name: 'file', data: 'not a file' }]],
    ['no parts at all', []],
  ])('refuses a body with %s (no file part named file) with 400', async (_name, parts) => {
    const error = await rejection(parseImageUpload(uploadRequest(multipartBody(parts)), options));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/"file"/);
  });

  it.each([
    ['JSON', 'application/json'],
    ['a raw image', 'image/png'],
    ['urlencoded form', 'application/x-www-form-urlencoded'],
    ['no Content-Type', null],
  ])('refuses %s (not multipart/form-data) with 415', async (_name, contentType) => {
    const request = uploadRequest(await solidImage('png', 4, 4, '#ffffff'), contentType);
    expect((await rejection(parseImageUpload(request, options))).status).toBe(415);
  });

  it('refuses multipart without a boundary with 400', async () => {
    const request = uploadRequest(
      multipartBody([{ name: 'file', filename: 'a.png', data: 'x' }]),
      'multipart/form-data',
    );
    expect((await rejection(parseImageUpload(request, options))).status).toBe(400);
  });

  it('refuses a body whose boundary does not match the header with 400', async () => {
    const request = uploadRequest(
      multipartBody([{ name: 'file', filename: 'a.png', data: 'x' }]),
      'multipart/form-data; boundary=something-else',
    );
    expect((await rejection(parseImageUpload(request, options))).status).toBe(400);
  });

  it('refuses a truncated body (no closing boundary) with 400', async () => {
    const png = await solidImage('png', 4, 4, '#ffffff');
    const body = multipartBody([{ name: 'file', filename: 'a.png', data: png }], { close: false });
    const error = await rejection(
      parseImageUpload(uploadRequest(body.subarray(0, body.length - 10)), options),
    );
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/malformed/);
  });

  it('refuses a huge part header with 400, not 500', async () => {
    const body = multipartBody([
      {
        name: 'file',
        filename: 'a.png',
        type: 'image/png',
        data: 'x',
        headers: [`X-Padding: ${'a'.repeat(64 * 1024)}`],
      },
    ]);
    const error = await rejection(parseImageUpload(uploadRequest(body), options));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/multipart body is malformed/);
    expect(error.message).not.toMatch(/Malformed part header/);
  });

  it.each(['file', 'other'])(
    'turns a body stream that fails midway through a part named %s into 400',
    async (name) => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new Error('connection reset'));
          sent = true;
          controller.enqueue(
            Buffer.from(
              `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="a"\r\n\r\nab`,
            ),
          );
        },
      });
      expect((await rejection(parseImageUpload(uploadRequest(body), options))).status).toBe(400);
    },
  );
});
