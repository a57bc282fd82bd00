import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chatHandlers } from '../lib/chat/handlers.js';
import { endpoint } from '../lib/http/index.js';
import { queryTermsOf } from '../lib/retrieval/index.js';
import { variantBChatHandlers } from '../lib/variant-b/handlers.js';
import { benchServices, trainingParts } from './bench-services.js';

/**
 * `npm run bench:qa -- --corpus FILE --questions FILE.json [--offcorpus FILE.json]`: trains a fresh
 * in-process service on FILE and prints, per question, whether an acceptable answer word is among
 * the first 60 words of the reply of Variant A (expert, raw) and Variant B (standard), beside a
 * plain BM25 top-1 passage baseline on the same passages; then the share of honest "I don't know"
 * replies to questions whose subject is not in the corpus, and the instant reply latency.
 */
const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    questions: { type: 'string' },
    offcorpus: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
if (!values.corpus || !values.questions) {
  console.error(
    'usage: npm run bench:qa -- --corpus FILE --questions FILE.json [--offcorpus FILE.json] [--verbose]',
  );
  process.exit(2);
}

interface Question {
  q: string;
  a?: string[];
}

const FIRST_WORDS = 60;

const services = await benchServices();
const chatA = endpoint(chatHandlers(() => services));
const chatB = endpoint(variantBChatHandlers(() => services));

const corpus = readFileSync(values.corpus, 'utf8');
let started = performance.now();
for (const part of trainingParts(corpus)) await services.model.train(part);
const { model, passages } = await services.model.knowledge();
console.log(
  `trained ${values.corpus}: ${model.tokenCount} tokens, ${passages.size} passages, vocabulary ${model.vocabSize} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const questions = JSON.parse(readFileSync(values.questions, 'utf8')) as Question[];
const hits = { a: 0, b: 0, baseline: 0 };
let asked = 0;
for (const { q, a = [] } of questions) {
  asked++;
  const replyA = await askA(q, 'expert', true);
  const replyB = await askB(q);
  const top = passages.search(queryTermsOf(q), 1)[0];
  const baseline = top ? passages.texts[top.id] : '';
  const hit = { a: answers(replyA, a), b: answers(replyB, a), baseline: answers(baseline, a) };
  for (const key of ['a', 'b', 'baseline'] as const) if (hit[key]) hits[key]++;
  const mark = (ok: boolean) => (ok ? 'hit ' : 'miss');
  console.log(`A ${mark(hit.a)}  B ${mark(hit.b)}  BM25 ${mark(hit.baseline)}  ${q}`);
  if (values.verbose) {
    console.log(`    A: ${replyA}`);
    console.log(`    B: ${replyB}`);
  }
}

let honest = 0;
let offAsked = 0;
if (values.offcorpus) {
  const off = JSON.parse(readFileSync(values.offcorpus, 'utf8')) as Question[];
  for (const { q } of off) {
    offAsked++;
    const reply = await askA(q, 'expert', true);
    const ok = /^I don't know\b/.test(reply);
    if (ok) honest++;
    if (values.verbose || !ok)
      console.log(`off-corpus ${ok ? 'honest' : 'ANSWERED'}  ${q}${ok ? '' : `\n    ${reply}`}`);
  }
}

const times: number[] = [];
for (let round = 0; round < 3; round++) {
  for (const { q } of questions) {
    started = performance.now();
    await askA(q, 'instant', true);
    times.push(performance.now() - started);
  }
}
times.sort((x, y) => x - y);
const percentile = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);

const rate = (n: number, of: number) => `${n}/${of} (${of ? Math.round((100 * n) / of) : 0}%)`;
console.log('');
console.log(`answer hit, first ${FIRST_WORDS} words   Variant A expert raw ${rate(hits.a, asked)}`);
console.log(`                               Variant B standard     ${rate(hits.b, asked)}`);
console.log(`                               BM25 top-1 passage     ${rate(hits.baseline, asked)}`);
if (values.offcorpus) console.log(`honest "I don't know" off corpus           ${rate(honest, offAsked)}`);
console.log(
  `instant reply (in process, ${times.length} requests): p50 ${percentile(0.5)} ms, p95 ${percentile(0.95)} ms`,
);

async function askA(message: string, modelMode: string, raw: boolean): Promise<string> {
  const response = await chatA.fetch(
    post('/api/chat', { message, modelMode, raw, sessionId: `qa-${asked}` }),
  );
  return ((await response.json()) as { response?: string; error?: string }).response ?? 'ERROR';
}

async function askB(message: string): Promise<string> {
  const response = await chatB.fetch(post('/api/api/chat', { message, mode: 'standard' }));
  return ((await response.json()) as { response?: string }).response ?? 'ERROR';
}

function post(path: string, body: unknown): Request {
  return new Request(`http://127.0.0.1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-real-ip': '127.0.0.1' },
    body: JSON.stringify(body),
  });
}

/** True when an acceptable answer word is among the first words of the reply. */
function answers(reply: string, acceptable: readonly string[]): boolean {
  const words = (reply.toLowerCase().match(/[\p{L}\p{N}/_.-]+/gu) ?? []).slice(0, FIRST_WORDS);
  return acceptable.some((word) => words.some((w) => w.replace(/[.]+$/, '') === word.toLowerCase()));
}
