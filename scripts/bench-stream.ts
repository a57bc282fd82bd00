/**
 * `npm run bench:stream -- [--url URL] [--runs N]`: time to the first streamed piece and to the
 * end of the stream, per mode of both variants and of the OpenAI-compatible API, against a
 * running server (e.g. `npm start` trained with `npm run train`). Sequential requests, each from
 * its own session, so the allowance and the rate limit are not what is measured.
 */
import { parseArgs } from 'node:util';

const QUESTIONS = [
  'Who was Moses?',
  'What is wisdom?',
  'Tell me about the light',
  'Where did Abraham go?',
  'What did Jesus say about love?',
  'Who built the ark?',
  'What is the kingdom of heaven like?',
  'Why did Jonah flee?',
];

interface Target {
  label: string;
  path: string;
  body: (question: string, run: string) => unknown;
}

const targets: Target[] = [
  ...(['instant', 'expert', 'apex'] as const).map((modelMode) => ({
    label: `/api/chat ${modelMode}`,
    path: '/api/chat',
    body: (message: string, run: string) => ({ message, modelMode, sessionId: `bench-${run}`, stream: true }),
  })),
  ...(['standard', 'think', 'deep_think'] as const).map((mode) => ({
    label: `/api/api/chat ${mode}`,
    path: '/api/api/chat',
    body: (message: string) => ({ message, mode, stream: true }),
  })),
  ...(['local-instant', 'local-expert', 'local-apex'] as const).map((model) => ({
    label: `/api/v1 ${model}`,
    path: '/api/v1/chat/completions',
    body: (content: string, run: string) => ({
      model,
      user: `bench-${run}`,
      stream: true,
      messages: [{ role: 'user', content }],
    }),
  })),
];

/** Milliseconds to the first content piece and to the end of one streamed request. */
async function timeOne(url: string, body: unknown): Promise<{ first: number; total: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      // API_KEY only matters to /api/v1, and only when the server sets one.
      ...(process.env.API_KEY && url.includes('/api/v1/')
        ? { authorization: `Bearer ${process.env.API_KEY}` }
        : {}),
    },
    body: JSON.stringify(body),
  });
  if (response.status === 429) {
    const seconds = Number(response.headers.get('retry-after') ?? '1');
    await response.body?.cancel();
    console.error(
      `(rate limited: waiting ${seconds} s; start the server with a larger RATE_LIMIT_REQUESTS to avoid this)`,
    );
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    return timeOne(url, body);
  }
  if (!response.ok || !response.body)
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const decoder = new TextDecoder();
  let seen = '';
  let first: number | undefined;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += decoder.decode(value, { stream: true });
    if (first === undefined && /event: delta|"delta":\{"content":"[^"]/.test(seen))
      first = performance.now() - started;
  }
  const total = performance.now() - started;
  return { first: first ?? total, total };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://localhost:3000' },
      runs: { type: 'string', default: '16' },
    },
  });
  const base = values.url!.replace(/\/+$/, '');
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
  const stamp = Date.now().toString(36);
  console.log(`Streaming latency against ${base}, ${runs} requests per row (ms)`);
  console.log('| endpoint, mode | first piece p50 | first piece p95 | whole stream p50 | whole stream p95 |');
  console.log('|---|---|---|---|---|');
  for (const target of targets) {
    await timeOne(base + target.path, target.body(QUESTIONS[0]!, `${stamp}-warm`));
    const firsts: number[] = [];
    const totals: number[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await timeOne(
        base + target.path,
        target.body(QUESTIONS[i % QUESTIONS.length]!, `${stamp}-${i}`),
      );
      firsts.push(result.first);
      totals.push(result.total);
    }
    const cells = [
      percentile(firsts, 50),
      percentile(firsts, 95),
      percentile(totals, 50),
      percentile(totals, 95),
    ];
    console.log(`| ${target.label} | ${cells.map((ms) => ms.toFixed(0)).join(' | ')} |`);
  }
}

main().catch((error: unknown) => {
  console.error(`bench:stream: ${(error as Error).message}`);
  process.exit(1);
});
