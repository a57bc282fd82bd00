import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startLocalServer } from '../support/local-server.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { startUpstashBridge, type UpstashBridge } from '../support/upstash-bridge.js';

const OWNER = 'owner@example.com';
const ADMIN_TOKEN = 'fault-test-admin-token-0123456789';
const owner = { 'X-Owner-Email': OWNER, Authorization: `Bearer ${ADMIN_TOKEN}` };
const WORKERS = 4;
/** Requests answered in each phase before the next begins (counts, never durations). */
const PHASE_REQUESTS = 40;
/** A bound on the whole run, so a service that never recovers fails the test instead of hanging it. */
const MAX_REQUESTS = 4000;

const dir = mkdtempSync(join(tmpdir(), 'redis-fault-'));
let redis: RedisServer;
let bridge: UpstashBridge;
let server: RunningServer;

beforeAll(async () => {
  redis = await startRedisServer({ dir, persistent: true });
  bridge = await startUpstashBridge(redis.url);
  const token = await bridge.allocateDatabase();
  server = await startLocalServer({
    UPSTASH_REDIS_REST_URL: bridge.url,
    UPSTASH_REDIS_REST_TOKEN: token,
    DATA_DIR: join(dir, 'unused'),
    RATE_LIMIT_REQUESTS: '100000',
    SESSION_LIMIT_FREE: '100000',
    OWNER_EMAIL: OWNER,
    ADMIN_TOKEN,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await bridge?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Phase = 'before' | 'down' | 'after';
interface Outcome {
  phase: Phase;
  kind: 'train' | 'chat';
  status: number;
  text?: string;
  body: string;
}

describe('Redis killed under load and restarted (npm start on the Upstash bridge)', () => {
  it('answers 503 while it is down, never 500, recovers, and keeps every acknowledged write', async () => {
    const outcomes: Outcome[] = [];
    let phase: Phase = 'before';
    let answeredInPhase = 0;
    let stop = false;

    async function send(kind: Outcome['kind'], worker: number, index: number): Promise<void> {
      const sentIn = phase;
      const text = `fault worker${worker} line${index} lantern harbour`;
      const response = await fetch(`${server.url}/api/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          kind === 'train' ? { text } : { message: 'lantern', sessionId: `fault-${worker}` },
        ),
      });
      const body = await response.text();
      // A request sent before a phase change may be answered after it: it counts where it was sent.
      outcomes.push({
        phase: sentIn,
        kind,
        status: response.status,
        body,
        ...(kind === 'train' ? { text } : {}),
      });
      if (sentIn === phase) answeredInPhase++;
    }

    const workers = Array.from({ length: WORKERS }, async (_, worker) => {
      for (let index = 0; !stop && outcomes.length < MAX_REQUESTS; index++) {
        await send(index % 2 === 0 ? 'train' : 'chat', worker, index);
      }
    });

    const untilAnswered = async (count: number, extra: () => boolean = () => true) => {
      while (!(answeredInPhase >= count && extra()) && outcomes.length < MAX_REQUESTS) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    };

    await untilAnswered(PHASE_REQUESTS);
    await redis.kill();
    phase = 'down';
    answeredInPhase = 0;
    await untilAnswered(PHASE_REQUESTS);
    const healthDown = await fetch(`${server.url}/api/health`);
    redis = await startRedisServer({ dir, persistent: true, port: redis.port });
    phase = 'after';
    answeredInPhase = 0;
    const recovered = () =>
      outcomes.filter((outcome) => outcome.phase === 'after' && outcome.status === 200).length >=
      PHASE_REQUESTS;
    await untilAnswered(PHASE_REQUESTS, recovered);
    stop = true;
    await Promise.all(workers);

    const statuses = outcomes.map((outcome) => outcome.status);
    const count = (status: number, which?: Phase) =>
      outcomes.filter((outcome) => outcome.status === status && (!which || outcome.phase === which)).length;
    const acknowledged = outcomes.filter((outcome) => outcome.kind === 'train' && outcome.status === 200);
    const chatsAcknowledged = outcomes.filter(
      (outcome) => outcome.kind === 'chat' && outcome.status === 200,
    ).length;

    const corpus = await (await fetch(`${server.url}/api/admin/export`, { headers: owner })).text();
    const keptTexts = new Set(corpus.split('\n\n').map((chunk) => chunk.trim()));
    const lost = acknowledged.filter((outcome) => !keptTexts.has(outcome.text!));
    const stats = (await (await fetch(`${server.url}/api/admin/stats`, { headers: owner })).json()) as {
      messages: number;
      corpus: { chunks: number };
    };
    const healthAfter = await fetch(`${server.url}/api/health`);

    console.log(
      `[redis killed] requests ${outcomes.length}, 200s ${count(200)}, 503s ${count(503)} (${count(503, 'down')} sent while down), 500s ${count(500)}; ` +
        `trains acknowledged ${acknowledged.length}, kept ${stats.corpus.chunks}, lost ${lost.length}; ` +
        `chats acknowledged ${chatsAcknowledged}, counted ${stats.messages}`,
    );

    expect(outcomes.length).toBeLessThan(MAX_REQUESTS);
    expect(new Set(statuses)).toEqual(new Set([200, 503]));
    for (const outcome of outcomes.filter((item) => item.status === 503)) {
      expect(JSON.parse(outcome.body)).toMatchObject({ code: 'store_unavailable' });
      expect(outcome.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|session-|rpush|incr/);
    }
    expect(count(200, 'before')).toBeGreaterThan(0);
    expect(count(503, 'down')).toBeGreaterThan(0);
    expect(count(200, 'after')).toBeGreaterThanOrEqual(PHASE_REQUESTS);
    expect(healthDown.status).toBe(503);
    expect(healthAfter.status).toBe(200);
    expect(lost).toEqual([]);
    expect(stats.corpus.chunks).toBeGreaterThanOrEqual(acknowledged.length);
    expect(stats.messages).toBeGreaterThanOrEqual(chatsAcknowledged);
  }, 180_000);
});
