import { describe, expect, it } from 'vitest';
import { createStoreSlidingWindow } from '../../lib/limits/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';

const LIMIT = 60;
const WINDOW_MS = 60_000;

/** Runs a client on a fixed clock: it asks at each of `times` and keeps the times it was let through. */
async function granted(times: readonly number[]): Promise<number[]> {
  let now = 0;
  const limiter = createStoreSlidingWindow(createEmbeddedStore({ now: () => now }), {
    requests: LIMIT,
    windowSeconds: WINDOW_MS / 1000,
    now: () => now,
  });
  const passed: number[] = [];
  for (const time of times) {
    now = time;
    if ((await limiter.limit('client')).success) passed.push(time);
  }
  return passed;
}

/** The most requests let through in any span of one window's length. */
function mostInAnyWindow(passed: readonly number[]): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < passed.length; last++) {
    while (passed[last] - passed[first] >= WINDOW_MS) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** What README and docs/api.md promise of the sliding-window approximation. */
describe('what a client can get from the rate limiter in a window', () => {
  const start = 100 * WINDOW_MS;

  it('lets at most the limit through in each fixed window, and at most twice it in any span of a window', async () => {
    // A client asking every 100 ms for five windows.
    const times = Array.from({ length: 3000 }, (_, index) => start + index * 100);
    const passed = await granted(times);
    for (let window = 100; window < 105; window++) {
      const inWindow = passed.filter((time) => Math.floor(time / WINDOW_MS) === window).length;
      expect(inWindow).toBeLessThanOrEqual(LIMIT);
    }
    const most = mostInAnyWindow(passed);
    console.log(
      `a client asking every 100 ms: at most ${most} in any ${WINDOW_MS / 1000} s (limit ${LIMIT})`,
    );
    expect(most).toBeGreaterThanOrEqual(LIMIT);
    expect(most).toBeLessThanOrEqual(2 * LIMIT);
  });

  it('reaches close to twice the limit at worst: the limit at the end of one window, again at the end of the next', async () => {
    const burst = (at: number) => Array.from({ length: LIMIT + 10 }, (_, index) => at + index);
    const passed = await granted([...burst(start + WINDOW_MS - 500), ...burst(start + 2 * WINDOW_MS - 600)]);
    expect(passed.length).toBe(2 * LIMIT);
    expect(passed[passed.length - 1] - passed[0]).toBeLessThan(WINDOW_MS);
  });
});
