import * as v from 'valibot';

/**
 * The body of a 200 from GET /api/openapi.json, as far as a client relies on it: an OpenAPI 3.1
 * document. Its parts are the OpenAPI specification's own, not restated here.
 */
export const openApiDocumentSchema = v.looseObject({
  openapi: v.literal('3.1.0'),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.looseObject({}),
  components: v.looseObject({}),
});
