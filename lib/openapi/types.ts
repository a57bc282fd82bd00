/**
 * The subset of JSON Schema (2020-12, as OpenAPI 3.1 uses it) the document is written in.
 * tests/support/json-schema.ts validates exactly these keywords and rejects any other.
 */
export interface JsonSchema {
  $ref?: string;
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  /** Annotations: not checked. */
  title?: string;
  description?: string;
  format?: string;
  default?: unknown;
  examples?: unknown[];
  contentMediaType?: string;
  contentEncoding?: string;
}

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

export interface MediaType {
  schema: JsonSchema;
  example?: unknown;
}

export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, MediaType>;
}

export interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response | { $ref: string }>;
}

export type HttpMethod = 'get' | 'post' | 'delete' | 'options';

export type PathItem = {
  description?: string;
  /** Where this path is served when not under the document's own server (a static file at the root). */
  servers?: { url: string; description: string }[];
} & Partial<Record<HttpMethod, Operation>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, Response>;
    headers: Record<string, Header>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}
