export { DEFAULT_JSON_LIMIT_BYTES, readBodyLimited, readJson } from './body.js';
export { clientAddress } from './client-address.js';
export {
  type Endpoint,
  type EndpointOptions,
  endpoint,
  type Method,
  type MethodHandler,
} from './endpoint.js';
export { type ErrorCode, errorStatus, HttpError } from './errors.js';
export { corsHeaders, errorResponse, json } from './responses.js';
export {
  acceptsEventStream,
  createEventStream,
  type EventSink,
  emitInPieces,
  eventStreamHeaders,
  formatEvent,
  type StreamPlan,
  streamOnceStarted,
  streamReply,
  wordPieces,
} from './sse.js';
export { validate } from './validate.js';
