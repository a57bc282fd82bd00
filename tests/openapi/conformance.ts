import type { OpenApiDocument } from '../../lib/openapi/index.js';
import { resolveRef, validateJson } from '../support/json-schema.js';

interface ResponseObject {
  description: string;
  headers?: Record<string, { $ref: string } | { required?: boolean; schema: unknown }>;
  content?: Record<string, { schema: unknown }>;
}

/** What a real response looked like, with the problems found against the document. */
export interface Conformance {
  status: number;
  body: unknown;
  headers: Headers;
  /** One line per mismatch; empty when the response is what the document says. */
  issues: string[];
}

/**
 * Checks a real response of `METHOD path` (a document path such as `/chat`) against the
 * document: the status is documented for the operation, required headers are present and valid,
 * the media type is one documented, and the body validates against its schema.
 */
export async function checkOperation(
  document: OpenApiDocument,
  method: string,
  path: string,
  response: Response,
): Promise<Conformance> {
  const operation = document.paths[path]?.[method.toLowerCase() as 'get'];
  if (!operation) return unread(response, [`${method} ${path} is not in the document`]);
  const documented = operation.responses[String(response.status)];
  if (!documented) {
    const text = await response.text();
    return unread(response, [
      `${method} ${path} answered ${response.status}, which the document does not list: ${text.slice(0, 300)}`,
    ]);
  }
  return checkResponse(document, documented, response);
}

/** Checks a real response against one response object of the document (or a `$ref` to one). */
export async function checkResponse(
  document: OpenApiDocument,
  documented: ResponseObject | { $ref: string },
  response: Response,
): Promise<Conformance> {
  const spec = ('$ref' in documented ? resolveRef(document, documented.$ref) : documented) as ResponseObject;
  const issues: string[] = [];

  for (const [name, entry] of Object.entries(spec.headers ?? {})) {
    const header = ('$ref' in entry ? resolveRef(document, entry.$ref) : entry) as {
      required?: boolean;
      schema: { type?: string };
    };
    const raw = response.headers.get(name);
    if (raw === null) {
      if (header.required) issues.push(`header ${name} is missing`);
      continue;
    }
    const numeric = header.schema.type === 'integer' || header.schema.type === 'number';
    const value = numeric && /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
    issues.push(...validateJson(document, header.schema, value, `header ${name}`));
  }

  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const result = (body: unknown) => ({ status: response.status, body, headers: response.headers, issues });
  if (!spec.content) {
    if (bytes.length > 0) issues.push(`expected no body, got ${bytes.length} bytes of ${type || 'no type'}`);
    return result(undefined);
  }
  const mediaType = Object.keys(spec.content).find(
    (candidate) =>
      candidate === type || (candidate.endsWith('/*') && type.startsWith(candidate.slice(0, -1))),
  );
  if (!mediaType) {
    issues.push(`Content-Type ${type || '(none)'} is not one of ${Object.keys(spec.content).join(', ')}`);
    return result(bytes);
  }
  const schema = spec.content[mediaType]!.schema;
  if (mediaType === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      issues.push('the body is not JSON');
      return result(bytes);
    }
    issues.push(...validateJson(document, schema, body));
    return result(body);
  }
  if (mediaType.startsWith('text/')) {
    const text = new TextDecoder().decode(bytes);
    issues.push(...validateJson(document, schema, text));
    return result(text);
  }
  if (bytes.length === 0) issues.push(`expected ${mediaType} bytes, got an empty body`);
  return result(bytes);
}

async function unread(response: Response, issues: string[]): Promise<Conformance> {
  if (!response.bodyUsed) await response.body?.cancel();
  return { status: response.status, body: undefined, headers: response.headers, issues };
}
