import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { JsonSchema, Parameter } from './types.js';

/** What the document says about a schema beyond its rules: its description and its fields'. */
export interface SchemaNotes {
  description?: string;
  /** Descriptions of properties, by name; a dotted name reaches inside ("corpus.chunks"), through arrays' items. */
  properties?: Record<string, string>;
  /**
   * The file parts of a multipart form, by field name, with their media type. The code reads a
   * file part as bytes beside the fields its schema validates, and JSON Schema has no type for
   * bytes: OpenAPI 3.1 writes one as a string with `contentMediaType`, a required property.
   */
  files?: Record<string, string>;
}

/** A reference to a schema of `components/schemas`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The JSON Schema of a valibot schema, as the document carries it: the rules (types, lengths,
 * patterns, enums, required fields, defaults) come from the schema the code validates with, so
 * the document cannot drift from it; the words come from `notes`. Transforms (trim, numbers
 * from query strings) have no JSON Schema form and are left out: the schema then describes the
 * input before them.
 */
export function fromValibot(schema: v.GenericSchema, notes: SchemaNotes = {}): JsonSchema {
  const { $schema: _dialect, ...generated } = toJsonSchema(schema, { errorMode: 'ignore' }) as Record<
    string,
    unknown
  >;
  const result = generated as JsonSchema;
  for (const [name, mediaType] of Object.entries(notes.files ?? {})) {
    result.properties = { [name]: { type: 'string', contentMediaType: mediaType }, ...result.properties };
    result.required = [name, ...(result.required ?? [])];
  }
  if (notes.description) result.description = notes.description;
  for (const [name, description] of Object.entries(notes.properties ?? {})) {
    propertyAt(result, name).description = description;
  }
  return result;
}

function propertyAt(schema: JsonSchema, path: string): JsonSchema {
  let node = schema;
  for (const name of path.split('.')) {
    while (node.items) node = node.items;
    const property = node.properties?.[name];
    if (!property) throw new Error(`fromValibot: the schema has no property "${path}" to describe`);
    node = property;
  }
  return node;
}

/**
 * The query parameters of an operation whose handler validates its query with `schema` (an
 * object schema of strings): one parameter per property, required as the schema says, described
 * by `descriptions`.
 */
export function queryParameters(
  schema: v.GenericSchema,
  descriptions: Record<string, string> = {},
): Parameter[] {
  const generated = fromValibot(schema);
  return Object.entries(generated.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: generated.required?.includes(name) ?? false,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
    schema: property,
  }));
}
