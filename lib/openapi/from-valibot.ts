import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { JsonSchema } from './types.js';

/** What the document says about a schema beyond its rules: its description and its fields'. */
export interface SchemaNotes {
  description?: string;
  /** Descriptions of top-level properties, by name. */
  properties?: Record<string, string>;
}

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
  if (notes.description) result.description = notes.description;
  for (const [name, description] of Object.entries(notes.properties ?? {})) {
    const property = result.properties?.[name];
    if (!property) throw new Error(`fromValibot: the schema has no property "${name}" to describe`);
    property.description = description;
  }
  return result;
}
