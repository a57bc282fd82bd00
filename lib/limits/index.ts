export { type Caller, type ClientLimitServices, underClientLimit } from './client-limit.js';
export {
  createFailedProofLimiter,
  FAILED_PROOF_WINDOW_SECONDS,
  FAILED_PROOFS_PER_WINDOW,
  type FailedProofLimiter,
} from './failed-proofs.js';
export { createStoreSlidingWindow, type SlidingWindowOptions } from './sliding-window.js';
export { createUpstashLimiter, type UpstashLimiterOptions } from './upstash.js';
