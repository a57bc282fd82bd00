export { type Caller, type ClientLimitServices, underClientLimit } from './client-limit.js';
export { createStoreSlidingWindow, type SlidingWindowOptions } from './sliding-window.js';
export { createUpstashLimiter, type UpstashLimiterOptions } from './upstash.js';
