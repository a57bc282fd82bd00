import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores, which on a 2-core machine (CI) runs the
    // files one at a time while most of them wait on servers, browsers and child processes. Two
    // at least: each file has its own ports, temporary folders and Redis database (the bridge
    // reuses none within a run), so files side by side do not see each other.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    env: { LOG_LEVEL: 'silent', STARTER_TEXT: 'off' },
  },
});
