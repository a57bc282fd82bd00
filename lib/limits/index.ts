export { type ClientLimitOptions, enforceClientLimit, underClientLimit } from './client-limit';
export { createStoreSlidingWindow, type SlidingWindowOptions } from './sliding-window';
export { createUpstashLimiter, type UpstashLimiterOptions } from './upstash';
