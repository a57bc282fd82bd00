export const BOUNDARY = '----upload-test-boundary-7MA4YWxkTrZu0gW';

export interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Uint8Array | string;
  /** Extra raw header lines for the part. */
  headers?: string[];
}

/** A multipart/form-data body written by hand, so tests can also write broken ones. */
export function multipartBody(parts: Part[], { close = true } = {}): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${
      part.filename === undefined ? '' : `; filename="${part.filename}"`
    }`;
    const lines = [`--${BOUNDARY}`, disposition];
    if (part.type) lines.push(`Content-Type: ${part.type}`);
    lines.push(...(part.headers ?? []));
    chunks.push(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** A POST to /api/upload with the given body and Content-Type (multipart with BOUNDARY by default). */
export function uploadRequest(
  body: BodyInit | Uint8Array,
  contentType: string | null = `multipart/form-data; boundary=${BOUNDARY}`,
  headers: Record<string, string> = {},
): Request {
  return new Request('http://127.0.0.1/api/upload', {
    method: 'POST',
    body: body instanceof Uint8Array ? new Uint8Array(body) : body,
    headers: { ...(contentType === null ? {} : { 'content-type': contentType }), ...headers },
    duplex: 'half',
  } as RequestInit);
}

/** A request carrying one file part named `file`. */
export function fileUpload(data: Uint8Array, filename = 'image.png', type = 'image/png'): Request {
  return uploadRequest(multipartBody([{ name: 'file', filename, type, data }]));
}
