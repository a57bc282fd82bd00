/**
 * A small JSON Schema (2020-12) validator for the subset lib/openapi is written in: type,
 * properties, required, additionalProperties, items, enum, const, oneOf/anyOf/allOf, $ref into
 * the document, minimum/maximum/exclusiveMinimum, minLength/maxLength, minItems/maxItems and pattern. Annotations
 * (description, format, default ...) are not checked. Any other keyword throws, so the document
 * cannot lean on a rule this validator would silently ignore.
 */

type Schema = Record<string, unknown>;

const checked = new Set([
  '$ref',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'oneOf',
  'anyOf',
  'allOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
]);
const annotations = new Set([
  'title',
  'description',
  'format',
  'default',
  'examples',
  'contentMediaType',
  'contentEncoding',
]);

/** Resolves a local reference such as `#/components/schemas/ChatResponse` in `document`. */
export function resolveRef(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported: ${ref}`);
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(key in node)) {
      throw new Error(`the reference ${ref} does not resolve`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Throws when `schema`, or a schema inside it, uses a keyword this validator does not know. */
export function assertSupportedSchema(document: unknown, schema: unknown, at = '#'): void {
  if (typeof schema === 'boolean') return;
  const node = asSchema(schema, at);
  for (const key of Object.keys(node)) {
    if (!checked.has(key) && !annotations.has(key)) throw new Error(`${at}: unsupported keyword "${key}"`);
  }
  if (typeof node.$ref === 'string') resolveRef(document, node.$ref);
  for (const [name, child] of Object.entries((node.properties as Record<string, unknown>) ?? {})) {
    assertSupportedSchema(document, child, `${at}/properties/${name}`);
  }
  if (typeof node.additionalProperties === 'object') {
    assertSupportedSchema(document, node.additionalProperties, `${at}/additionalProperties`);
  }
  if (node.items !== undefined) assertSupportedSchema(document, node.items, `${at}/items`);
  for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
    for (const [index, child] of ((node[keyword] as unknown[]) ?? []).entries()) {
      assertSupportedSchema(document, child, `${at}/${keyword}/${index}`);
    }
  }
  if (typeof node.pattern === 'string') new RegExp(node.pattern, 'u');
}

/**
 * Validates `value` against `schema`; references resolve in `document`. Returns one line per
 * problem, each starting with the JSON path of the value (`$.source.url: ...`); empty when valid.
 */
export function validateJson(document: unknown, schema: unknown, value: unknown, path = '$'): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  const node = asSchema(schema, path);
  const issues: string[] = [];
  const fail = (message: string) => issues.push(`${path}: ${message}`);

  if (typeof node.$ref === 'string') {
    issues.push(...validateJson(document, resolveRef(document, node.$ref), value, path));
  }
  if (node.type !== undefined) {
    const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string];
    if (!types.some((type) => hasType(value, type))) {
      fail(`expected ${types.join(' or ')}, got ${describe(value)}`);
      return issues;
    }
  }
  if (node.enum !== undefined && !(node.enum as unknown[]).some((option) => deepEqual(option, value))) {
    fail(`expected one of ${JSON.stringify(node.enum)}, got ${JSON.stringify(value)}`);
  }
  if ('const' in node && !deepEqual(node.const, value)) {
    fail(`expected ${JSON.stringify(node.const)}, got ${JSON.stringify(value)}`);
  }

  if (typeof value === 'number') {
    if (typeof node.minimum === 'number' && value < node.minimum) fail(`${value} is below ${node.minimum}`);
    if (typeof node.maximum === 'number' && value > node.maximum) fail(`${value} is above ${node.maximum}`);
    if (typeof node.exclusiveMinimum === 'number' && value <= node.exclusiveMinimum) {
      fail(`${value} is not above ${node.exclusiveMinimum}`);
    }
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof node.minLength === 'number' && length < node.minLength) fail(`shorter than ${node.minLength}`);
    if (typeof node.maxLength === 'number' && length > node.maxLength) fail(`longer than ${node.maxLength}`);
    if (typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test(value)) {
      fail(`${JSON.stringify(value.slice(0, 80))} does not match ${node.pattern}`);
    }
  }
  if (Array.isArray(value)) {
    if (typeof node.minItems === 'number' && value.length < node.minItems)
      fail(`fewer than ${node.minItems} items`);
    if (typeof node.maxItems === 'number' && value.length > node.maxItems)
      fail(`more than ${node.maxItems} items`);
  }
  if (Array.isArray(value) && node.items !== undefined) {
    value.forEach((item, index) => {
      issues.push(...validateJson(document, node.items, item, `${path}[${index}]`));
    });
  }
  if (isObject(value)) {
    const properties = (node.properties as Record<string, unknown>) ?? {};
    for (const name of (node.required as string[]) ?? []) {
      if (!(name in value)) fail(`missing required property "${name}"`);
    }
    for (const [name, child] of Object.entries(value)) {
      const childPath = `${path}.${name}`;
      if (name in properties) issues.push(...validateJson(document, properties[name], child, childPath));
      else if (node.additionalProperties === false) fail(`unexpected property "${name}"`);
      else if (typeof node.additionalProperties === 'object') {
        issues.push(...validateJson(document, node.additionalProperties, child, childPath));
      }
    }
  }

  for (const child of (node.allOf as unknown[]) ?? [])
    issues.push(...validateJson(document, child, value, path));
  if (node.anyOf !== undefined) {
    const results = (node.anyOf as unknown[]).map((child) => validateJson(document, child, value, path));
    if (!results.some((result) => result.length === 0)) {
      fail(`matches none of anyOf:\n  ${results.flat().join('\n  ')}`);
    }
  }
  if (node.oneOf !== undefined) {
    const results = (node.oneOf as unknown[]).map((child) => validateJson(document, child, value, path));
    const passing = results.filter((result) => result.length === 0).length;
    if (passing === 0) fail(`matches none of oneOf:\n  ${results.flat().join('\n  ')}`);
    if (passing > 1) fail(`matches ${passing} schemas of oneOf, expected exactly one`);
  }
  return issues;
}

function asSchema(schema: unknown, at: string): Schema {
  if (!isObject(schema)) throw new Error(`${at}: a schema must be an object, got ${describe(schema)}`);
  return schema;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      throw new Error(`unknown type "${type}"`);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => key in b && deepEqual(a[key], b[key]))
    );
  }
  return false;
}
