export { DEFAULT_JSON_LIMIT_BYTES, readBodyLimited, readJson } from './body';
export { clientAddress } from './client-address';
export { type Endpoint, endpoint, type Method, type MethodHandler } from './endpoint';
export { type ErrorCode, errorStatus, HttpError } from './errors';
export { corsHeaders, errorResponse, json } from './responses';
export { validate } from './validate';
