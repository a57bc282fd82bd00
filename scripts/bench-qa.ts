import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { DocumentFormat } from '../lib/documents/index.js';
import {
  type BenchClient,
  benchClient,
  corporaDir,
  mentions,
  oneLine,
  rate,
  readBenchFile,
} from './bench-chat.js';
import { baselineSections, SectionBm25 } from './bench-sections.js';
import { benchServices } from './bench-services.js';

/**
 * `npm run bench:qa [-- --set NAME] [--corpora DIR] [--verbose]`, or `-- --corpus FILE --questions
 * FILE.json [--offcorpus FILE.json]` for a corpus of one's own: for each set of bench/qa/sets.json
 * (the docs sample's READMEs and manual pages, the KJV, documentation installed on this machine),
 * trains a fresh in-process service on its documents (each with its format) and prints, per question, "hit" (an
 * acceptable word among the first 60 words of the reply) and "lead" (among the first 15) for
 * Variant A (expert, raw) and Variant B (standard), beside a plain BM25 baseline over the same
 * documents' sections (top-1 section returned as is); then honest "I don't know" replies to
 * questions off the corpus, and the instant reply latency where the set asks for it.
 */
const { values } = parseArgs({
  options: {
    set: { type: 'string' },
    corpus: { type: 'string' },
    questions: { type: 'string' },
    offcorpus: { type: 'string' },
    corpora: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});

interface SetFile {
  path: string;
  format: DocumentFormat;
  name?: string;
}
interface QuestionSet {
  name: string;
  files: SetFile[];
  questions: string;
  where?: Record<string, string>;
  offcorpus?: string;
  latency?: boolean;
}
interface Question {
  q: string;
  a?: string[];
  [field: string]: unknown;
}

const HIT_WORDS = 60;
const LEAD_WORDS = 15;
const corpora = corporaDir(values.corpora);
const { sets } = JSON.parse(readFileSync('bench/qa/sets.json', 'utf8')) as { sets: QuestionSet[] };
const chosen = values.corpus
  ? [ownSet(values.corpus)]
  : sets.filter((set) => !values.set || set.name.toLowerCase().includes(values.set.toLowerCase()));

/** `--corpus FILE --questions FILE.json [--offcorpus FILE.json]`: one set of the caller's own. */
function ownSet(corpus: string): QuestionSet {
  if (!values.questions) {
    console.error('usage: npm run bench:qa -- --corpus FILE --questions FILE.json [--offcorpus FILE.json]');
    process.exit(2);
  }
  const format: DocumentFormat = /\.(md|markdown)$/i.test(corpus)
    ? 'markdown'
    : /\.html?$/i.test(corpus)
      ? 'html'
      : 'text';
  return {
    name: corpus,
    files: [{ path: corpus, format }],
    questions: values.questions,
    ...(values.offcorpus ? { offcorpus: values.offcorpus } : {}),
    latency: true,
  };
}

type Scores = Record<'aHit' | 'aLead' | 'bHit' | 'bLead' | 'baseHit' | 'baseLead', number>;
const summary: { name: string; asked: number; scores: Scores; honest: string; latency?: string }[] = [];

for (const set of chosen) {
  console.log(`\n=== ${set.name}`);
  const services = await benchServices();
  const client = benchClient(services);
  const sections = [];
  const started = performance.now();
  for (const file of set.files) {
    const text = readBenchFile(file.path, corpora);
    if (text === undefined) {
      console.log(`  (skipped ${file.path}: not on this machine)`);
      continue;
    }
    await client.train(text, { format: file.format, ...(file.name ? { name: file.name } : {}) });
    sections.push(...baselineSections(text, file.format));
  }
  const { model, passages } = await services.model.knowledge();
  console.log(
    `trained ${model.tokenCount} tokens, ${passages.size} passages, ${sections.length} baseline sections in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const baseline = new SectionBm25(sections);

  const questions = (JSON.parse(readBenchFile(set.questions, corpora) ?? '[]') as Question[]).filter(
    (question) => Object.entries(set.where ?? {}).every(([field, value]) => question[field] === value),
  );
  const scores: Scores = { aHit: 0, aLead: 0, bHit: 0, bLead: 0, baseHit: 0, baseLead: 0 };
  let asked = 0;
  for (const { q, a = [] } of questions) {
    asked++;
    const replyA = (await client.askA(q, { sessionId: `qa-${asked}`, modelMode: 'expert', raw: true })).text;
    const replyB = (await client.askB(q)).text;
    const top = baseline.top(q);
    const marks: string[] = [];
    for (const [key, reply] of [
      ['a', replyA],
      ['b', replyB],
      ['base', top],
    ] as const) {
      const hit = mentions(reply, a, HIT_WORDS);
      const lead = mentions(reply, a, LEAD_WORDS);
      if (hit) scores[`${key}Hit`]++;
      if (lead) scores[`${key}Lead`]++;
      marks.push(lead ? 'lead' : hit ? 'hit ' : 'miss');
    }
    console.log(`A ${marks[0]}  B ${marks[1]}  BM25 ${marks[2]}  ${q}`);
    if (values.verbose) {
      console.log(`    A: ${oneLine(replyA)}`);
      console.log(`    B: ${oneLine(replyB)}`);
      console.log(`    BM25: ${oneLine(top)}`);
    }
  }

  const honest = await offCorpus(client, set);
  const latency = set.latency ? await instantLatency(client, questions) : undefined;
  console.log(`hit (first ${HIT_WORDS} words) / lead (first ${LEAD_WORDS}) of ${asked}:`);
  console.log(`  Variant A expert raw  ${scores.aHit} / ${scores.aLead}`);
  console.log(`  Variant B standard    ${scores.bHit} / ${scores.bLead}`);
  console.log(`  BM25 section baseline ${scores.baseHit} / ${scores.baseLead}`);
  if (honest) console.log(`honest "I don't know" off corpus (A, B): ${honest}`);
  if (latency) console.log(`instant reply: ${latency}`);
  summary.push({ name: set.name, asked, scores, honest, latency });
}

console.log(
  '\n| set | questions | A expert raw hit / lead | B standard hit / lead | BM25 sections hit / lead | honest off corpus (A, B) |',
);
console.log('|---|---|---|---|---|---|');
for (const { name, asked, scores: s, honest } of summary) {
  console.log(
    `| ${name} | ${asked} | ${s.aHit} / ${s.aLead} | ${s.bHit} / ${s.bLead} | ${s.baseHit} / ${s.baseLead} | ${honest || '-'} |`,
  );
}
for (const { name, latency } of summary) if (latency) console.log(`instant reply on ${name}: ${latency}`);

/** Asks the set's off-corpus questions of both variants; "I don't know …" first is honest. */
async function offCorpus(client: BenchClient, set: QuestionSet): Promise<string> {
  if (!set.offcorpus) return '';
  const questions = JSON.parse(readBenchFile(set.offcorpus, corpora) ?? '[]') as Question[];
  let honestA = 0;
  let honestB = 0;
  for (const [i, { q }] of questions.entries()) {
    const replyA = (await client.askA(q, { sessionId: `off-${i}`, modelMode: 'expert', raw: true })).text;
    const replyB = (await client.askB(q)).text;
    const okA = /^(?:I don't know|The documents I was given don't|I couldn't find)\b/i.test(replyA);
    const okB = /^(?:I don't know|The documents I was given don't|I couldn't find)\b/i.test(replyB);
    if (okA) honestA++;
    if (okB) honestB++;
    if (values.verbose || !okA || !okB) {
      console.log(`off-corpus A ${okA ? 'honest' : 'ANSWERED'}  B ${okB ? 'honest' : 'ANSWERED'}  ${q}`);
      if (!okA) console.log(`    A: ${oneLine(replyA)}`);
      if (!okB) console.log(`    B: ${oneLine(replyB)}`);
    }
  }
  return `${rate(honestA, questions.length)}, ${rate(honestB, questions.length)}`;
}

/** Instant-mode replies of Variant A, three rounds of the set's questions: p50 and p95. */
async function instantLatency(client: BenchClient, questions: Question[]): Promise<string> {
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const [i, { q }] of questions.entries()) {
      const started = performance.now();
      await client.askA(q, { sessionId: `lat-${round}-${i}`, modelMode: 'instant', raw: true });
      times.push(performance.now() - started);
    }
  }
  times.sort((x, y) => x - y);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (in process, ${times.length} requests)`;
}
