import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorStatus } from '../../lib/http/index.js';
import { type JsonSchema, type OpenApiDocument, openApiDocument } from '../../lib/openapi/index.js';
import { resolveRef } from '../support/json-schema.js';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { pngClaiming } from '../vision/images.js';

const OWNER = 'owner@example.com';
const ADMIN_TOKEN = 'sweep-admin-token-0123456789abcdef';
const owner = { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ADMIN_TOKEN}` };
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Longer than any field or body the service takes (train's 1 MB included). */
const HUGE = 'x'.repeat(1_100_000);

/** Sent inside malformed bodies: a response that quotes it back is echoing the parser's message. */
const ECHO = 'echo-marker-5f3a';
/** A library's words (JSON.parse, busboy, sharp, pdf.js, the runtime) or a stack trace in a response. */
const LIBRARY_TEXT = [
  /Unexpected (token|end of JSON|non-whitespace)/i,
  /" is not valid JSON/,
  /JSON at position/,
  /Malformed part header|Unexpected end of form|Multipart: Boundary|Boundary not found/i,
  /Input buffer|corrupt header|vips/i,
  /Invalid PDF|Invalid array length|FormatError|Indexing all PDF objects/i,
  /Maximum call stack|heap out of memory/i,
  /\n\s+at \S|\.ts:\d+|node_modules/,
  new RegExp(ECHO),
];

/** One malformed request, described so a failure says which. */
interface Case {
  name: string;
  method: string;
  path: string;
  /** Where the document serves the path: /api, or the host root for a static file. */
  base?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
}

const document = openApiDocument as OpenApiDocument;

function resolve(schema: JsonSchema): JsonSchema {
  return schema.$ref ? resolve(resolveRef(document, schema.$ref) as JsonSchema) : schema;
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type[0] : schema.type;
}

/** A small valid value of a schema: required properties only. */
function validExample(raw: JsonSchema): unknown {
  const schema = resolve(raw);
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, validExample(schema.properties![name]!)]),
      );
    case 'array':
      return [];
    case 'integer':
      return schema.minimum ?? 1;
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return 'hello world';
  }
}

/** Values the schema refuses: other types, then each constraint just crossed. */
function invalidValues(raw: JsonSchema): [string, unknown][] {
  const schema = resolve(raw);
  const type = typeOf(schema);
  const values: [string, unknown][] = [];
  const others: [string, unknown][] = [
    ['a string', 'text'],
    ['a number', 42],
    ['a fraction', 1.5],
    ['true', true],
    ['null', null],
    ['an array', ['x']],
    ['an object', { nested: 1 }],
  ];
  for (const [label, value] of others) {
    const valueType = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    const fits =
      valueType === type ||
      (valueType === 'number' && type === 'integer' && Number.isInteger(value)) ||
      (valueType === 'number' && type === 'number');
    if (!fits) values.push([label, value]);
  }
  if (schema.enum) values.push(['a value outside the enum', 'not-one-of-them']);
  if (schema.minLength !== undefined && schema.minLength > 0) values.push(['too short', '']);
  if (schema.maxLength !== undefined)
    values.push(['one character too long', 'x'.repeat(schema.maxLength + 1)]);
  if (schema.pattern) values.push(['off the pattern', 'no spaces / allowed!']);
  if (schema.minimum !== undefined) values.push(['below the minimum', schema.minimum - 1]);
  if (schema.maximum !== undefined) values.push(['above the maximum', schema.maximum + 1]);
  if (type === 'integer') values.push(['not whole', (schema.minimum ?? 1) + 0.5]);
  if (type === 'string' && !schema.enum) values.push(['huge', HUGE]);
  if (type === 'array' && schema.items) {
    const item = resolve(schema.items);
    values.push(['an item of the wrong type', [42]]);
    if (typeOf(item) === 'object') {
      const valid = validExample(item) as Record<string, unknown>;
      for (const name of item.required ?? []) {
        const { [name]: _, ...rest } = valid;
        values.push([`an item without ${name}`, [rest]]);
      }
      for (const [name, property] of Object.entries(item.properties ?? {})) {
        for (const [label, value] of invalidValues(property)) {
          if (label !== 'huge')
            values.push([`an item whose ${name} is ${label}`, [{ ...valid, [name]: value }]]);
        }
      }
    }
  }
  return values;
}

function jsonCases(
  path: string,
  method: string,
  schema: JsonSchema,
  headers: Record<string, string>,
): Case[] {
  const resolved = resolve(schema);
  const valid = validExample(resolved) as Record<string, unknown>;
  const send = (name: string, body: BodyInit, contentType: string | null = 'application/json'): Case => ({
    name: `${method} ${path}: ${name}`,
    method,
    path,
    headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });
  const cases: Case[] = [];
  const badJson = [
    '',
    ' ',
    '{',
    '{"message":',
    '[1,2',
    'not json',
    '{"a":1}}',
    "{'single':'quotes'}",
    'NaN',
    `{"${ECHO}" 1}`,
    `{"message": "${ECHO}`,
    `${ECHO}{}`,
  ];
  for (const text of badJson) cases.push(send(`bad JSON ${JSON.stringify(text)}`, text));
  for (const text of ['null', '[]', '123', '"text"', 'true', '{}'])
    cases.push(send(`the JSON ${text}`, text));
  cases.push(send('the valid body inside an array', JSON.stringify([valid])));
  cases.push(send('arrays nested 20000 deep', '['.repeat(20_000) + ']'.repeat(20_000)));
  cases.push(send('objects nested 20000 deep', '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)));
  cases.push(send('bytes that are not UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])));
  cases.push(
    send('a body larger than any limit', JSON.stringify({ ...valid, padding: 'y'.repeat(8_000_000) })),
  );
  for (const type of [
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data',
    'application/xml',
    'application/octet-stream',
    'image/png',
  ]) {
    cases.push(send(`Content-Type ${type}`, JSON.stringify(valid), type));
  }
  cases.push(send('no Content-Type', JSON.stringify(valid), null));
  for (const name of resolved.required ?? []) {
    const { [name]: _, ...rest } = valid;
    cases.push(send(`without ${name}`, JSON.stringify(rest)));
  }
  for (const [name, property] of Object.entries(resolved.properties ?? {})) {
    for (const [label, value] of invalidValues(property)) {
      cases.push(send(`${name} is ${label}`, JSON.stringify({ ...valid, [name]: value })));
    }
    const type = typeOf(resolve(property));
    if (type === 'number' || type === 'integer') {
      // JSON text whose numbers overflow to ±Infinity once parsed.
      for (const number of ['1e400', '-1e400']) {
        const text = JSON.stringify({ ...valid, [name]: 0 }).replace(`"${name}":0`, `"${name}":${number}`);
        cases.push(send(`${name} is ${number}`, text));
      }
    }
  }
  return cases;
}

async function uploadCases(path: string): Promise<Case[]> {
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#aa3300' } })
    .png()
    .toBuffer();
  const boundary = 'sweep-boundary-42';
  const part = (name: string, filename: string | undefined, data: Buffer | string) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n`,
      ),
      Buffer.from(data),
      Buffer.from('\r\n'),
    ]);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const bodies: [string, string, BodyInit][] = [
    ['JSON instead of multipart', 'application/json', JSON.stringify({ file: png.toString('base64') })],
    ['no Content-Type', '', new Uint8Array(png)],
    ['a raw PNG as the body', 'image/png', new Uint8Array(png)],
    ['multipart without a boundary', 'multipart/form-data', new Uint8Array(png)],
    ['an empty multipart body', `multipart/form-data; boundary=${boundary}`, ''],
    ['a closed multipart without parts', `multipart/form-data; boundary=${boundary}`, new Uint8Array(end)],
    [
      'the file under another name',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('image', 'a.png', png), end])),
    ],
    [
      'the file as a text field',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', undefined, 'not a file'), end])),
    ],
    [
      'two files',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'a.png', png), part('file', 'b.png', png), end])),
    ],
    [
      'an empty file',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'a.png', Buffer.alloc(0)), end])),
    ],
    [
      'a text file',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'a.png', 'hello, plain text'), end])),
    ],
    [
      'a truncated PNG',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'a.png', png.subarray(0, png.length - 20)), end])),
    ],
    [
      'a body cut off mid-part',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(part('file', 'a.png', png).subarray(0, 100)),
    ],
    [
      'an SVG with a script',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(
        Buffer.concat([
          part('file', 'a.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          end,
        ]),
      ),
    ],
    [
      'an HTML page named .png',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'a.png', '<!doctype html><p>hi</p>'), end])),
    ],
    [
      'a PDF',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'a.pdf', '%PDF-1.4\n%%EOF\n'), end])),
    ],
    [
      'only a PNG signature',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'a.png', png.subarray(0, 8)), end])),
    ],
    [
      'a PNG declaring 60000×60000 pixels',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'bomb.png', pngClaiming(60_000, 60_000)), end])),
    ],
    [
      'a boundary that does not match the header',
      'multipart/form-data; boundary=another-boundary',
      new Uint8Array(Buffer.concat([part('file', 'a.png', png), end])),
    ],
    [
      'a file over 5 MB',
      `multipart/form-data; boundary=${boundary}`,
      new Uint8Array(Buffer.concat([part('file', 'big.png', Buffer.alloc(5 * 1024 * 1024 + 10, 1)), end])),
    ],
  ];
  return bodies.map(
    ([name, type, body]): Case => ({
      name: `POST ${path}: ${name}`,
      method: 'POST',
      path,
      headers: type ? { 'content-type': type } : {},
      body,
    }),
  );
}

/** Every malformed request the OpenAPI document lets us derive, over every path and method. */
async function sweepCases(): Promise<Case[]> {
  const cases: Case[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const first = cases.length;
    for (const suffix of ['/extra', '.php']) {
      cases.push({
        name: `GET ${path}${suffix}: a path that does not exist`,
        method: 'GET',
        path: `${path}${suffix}`,
      });
    }
    const documented = METHODS.filter((method) => method.toLowerCase() in item);
    for (const method of METHODS.filter((candidate) => !documented.includes(candidate))) {
      cases.push({ name: `${method} ${path}: a method it does not answer`, method, path });
    }
    for (const method of documented) {
      const operation = item[method.toLowerCase() as 'get' | 'post' | 'delete']!;
      const isOwnerOnly = operation.security?.some((entry) => 'ownerEmail' in entry) ?? false;
      const auth = isOwnerOnly ? owner : {};
      if (isOwnerOnly) {
        cases.push({ name: `${method} ${path}: no owner headers`, method, path });
        cases.push({
          name: `${method} ${path}: a wrong admin token`,
          method,
          path,
          headers: { 'X-Owner-Email': OWNER, Authorization: 'Bearer not-the-admin-token-at-all' },
        });
        cases.push({
          name: `${method} ${path}: another e-mail`,
          method,
          path,
          headers: { ...owner, 'X-Owner-Email': 'someone@example.com' },
        });
      }
      if (operation.security?.some((entry) => 'signIn' in entry)) {
        for (const value of ['Bearer', 'Bearer not.a.token', 'Basic abc', 'Bearer a.b.c']) {
          cases.push({
            name: `${method} ${path}: Authorization "${value}"`,
            method,
            path,
            headers: { Authorization: value, 'content-type': 'application/json' },
            ...(operation.requestBody?.content['application/json']
              ? {
                  body: JSON.stringify(
                    validExample(operation.requestBody.content['application/json'].schema),
                  ),
                }
              : {}),
          });
        }
      }
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue;
        const values = [
          '',
          'zz',
          'a'.repeat(65),
          'g'.repeat(64),
          'A'.repeat(64),
          '../../etc/passwd',
          '%00',
          'é',
          ' ',
          HUGE.slice(0, 4000),
        ];
        if (parameter.required)
          cases.push({ name: `${method} ${path}: without ${parameter.name}`, method, path, headers: auth });
        for (const value of values) {
          cases.push({
            name: `${method} ${path}: ${parameter.name}=${value.slice(0, 20)}`,
            method,
            path: `${path}?${parameter.name}=${encodeURIComponent(value)}`,
            headers: auth,
          });
        }
      }
      const json = operation.requestBody?.content['application/json'];
      if (json) cases.push(...jsonCases(path, method, json.schema, auth));
      if (path === '/train' && method === 'POST') cases.push(...nestedDocumentCases());
      if (operation.requestBody?.content['multipart/form-data']) cases.push(...(await uploadCases(path)));
    }
    const base = (item.servers?.[0]?.url ?? '/api').replace(/\/$/, '');
    for (const added of cases.slice(first)) added.base = base;
  }
  return cases;
}

/** Documents nested 100,000 deep, the shapes that once overflowed the readers' stacks. */
function nestedDocumentCases(): Case[] {
  const documents = [
    ['html', `<body>${'<div>'.repeat(100_000)}deep`],
    ['html', `${'<ul><li>'.repeat(100_000)}item`],
    ['markdown', `${'>'.repeat(100_000)} quoted`],
    ['markdown', `${'- '.repeat(100_000)}item`],
    ['markdown', Array.from({ length: 1000 }, (_, level) => `${'  '.repeat(level)}- ${level}`).join('\n')],
  ];
  return documents.map(([format, text], index) => ({
    name: `POST /train: ${format} nested deep, shape ${index + 1}`,
    method: 'POST',
    path: '/train',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text, format }),
  }));
}

/** A library's words or a stack trace in a body, or ''. */
function libraryTextProblem(text: string): string {
  const found = LIBRARY_TEXT.find((pattern) => pattern.test(text));
  return found ? `library text ${found}` : '';
}

/**
 * What is wrong with an error body, or '': ours is `{ error, code }` with the code of its status;
 * the OpenAI-compatible API's is OpenAI's `{ error: { message, type, code } }`.
 */
function errorShapeProblem(text: string, status: number): string {
  let body: { error?: unknown; code?: unknown } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    return 'unparsable body';
  }
  if (typeof body?.error === 'object' && body.error !== null) {
    const { message, type } = body.error as { message?: unknown; type?: unknown };
    return typeof message === 'string' && message !== '' && typeof type === 'string'
      ? ''
      : 'bad OpenAI error';
  }
  if (typeof body?.error !== 'string' || body.error === '') return 'no error message';
  const code = typeof body.code === 'string' ? body.code : '';
  return errorStatus[code as keyof typeof errorStatus] === status ? '' : `code "${code}" off its status`;
}

describe('a bad-input sweep generated from the OpenAPI document, against npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sweep-test-'));
  let server: RunningServer;
  let cases: Case[];

  beforeAll(async () => {
    server = await startLocalServer({
      DATA_DIR: dataDir,
      RATE_LIMIT_REQUESTS: '100000',
      // Each request names its own address, so failed admin proofs (limited per address) do not
      // turn the owner's later cases into 429s.
      TRUST_PROXY_HEADER: 'x-real-ip',
      OWNER_EMAIL: OWNER,
      ADMIN_TOKEN,
    });
    cases = await sweepCases();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every malformed request with a 4xx JSON error carrying nosniff, in our words (no library text, no stack), never a 500', async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const [index, item] of cases.entries()) {
      const response = await fetch(`${server.url}${item.base ?? '/api'}${item.path}`, {
        method: item.method,
        headers: { 'x-real-ip': `10.${index >> 16}.${(index >> 8) & 255}.${index & 255}`, ...item.headers },
        body: item.body,
      });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const problems = [
        response.status < 400 || response.status > 499 ? `status ${response.status}` : '',
        !response.headers.get('content-type')?.startsWith('application/json') ? 'not JSON' : '',
        errorShapeProblem(text, response.status),
        libraryTextProblem(text),
        response.headers.get('x-content-type-options') !== 'nosniff' ? 'no nosniff' : '',
      ].filter(Boolean);
      if (problems.length) failures.push(`${item.name} -> ${problems.join(', ')}: ${text.slice(0, 160)}`);
    }
    console.log(
      `[bad-input sweep] ${cases.length} requests over ${Object.keys(document.paths).length} paths; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(300);
  }, 180_000);
});
