export { DEFAULT_JSON_LIMIT_BYTES, readBodyLimited, readJson } from './body.js';
export {
  attachSocketAddress,
  type ClientAddressPolicy,
  clientAddress,
  clientAddressResolver,
  socketAddress,
  VERCEL_ADDRESS_HEADER,
} from './client-address.js';
export {
  type Endpoint,
  type EndpointOptions,
  endpoint,
  type Method,
  type MethodHandler,
} from './endpoint.js';
export { type ErrorCode, errorStatus, HttpError, storeUnavailable } from './errors.js';
export {
  corsHeaders,
  errorResponse,
  json,
  PAGE_CONTENT_SECURITY_POLICY,
  pageSecurityHeaders,
  securityHeaders,
  WIDGET_SCRIPT_PATH,
  widgetScriptHeaders,
} from './responses.js';
export {
  acceptsEventStream,
  createEventStream,
  type DeltaSink,
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
