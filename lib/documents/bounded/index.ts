export { DEFAULT_READ_LIMITS, type ReadLimits, readLimitsOf } from './limits.js';
export { readBounded, readWorkersStarted } from './read-bounded.js';
export type { ReadJob } from './read-job.js';
export { type ReadRefusal, refusalError } from './refusal.js';
