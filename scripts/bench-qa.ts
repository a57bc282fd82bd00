import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { DocumentFormat } from '../lib/documents/index.js';
import { type BenchClient, corporaDir, oneLine, rate } from './bench-chat.js';
import {
  HIT_WORDS,
  halvesOf,
  type Judged,
  LEAD_WORDS,
  runSet,
  type SetResult,
  type Tally,
  tally,
} from './bench-qa-core.js';
import { type Half, loadSets, type Question, type QuestionSet } from './bench-sets.js';

/**
 * `npm run bench:qa [-- --set NAME] [--half tuning|heldout] [--corpora DIR] [--verbose]
 * [--json FILE]`, or `-- --corpus FILE --questions FILE.json [--offcorpus FILE.json]` for a corpus
 * of one's own: for each set of bench/qa/sets.json (the shared samples, the KJV, documentation
 * installed on this machine, and the vendored sets of bench/qa/<set>/: an HTML manual, a PDF
 * guide, a Markdown docs folder), trains a fresh in-process service on its documents (each as a
 * user sends it) and prints, per question, "hit" (an acceptable word among the first 60 words of
 * the reply) and "lead" (among the first 15) for Variant A (expert, raw) and Variant B (standard),
 * beside a plain BM25 baseline over the same documents' sections (top-1 section returned as is);
 * the replies at level `nearest`, and the wrong-but-cited ones (level `answer`, citing sources, no
 * acceptable word in the first 60 words); then honest "I don't know" replies to questions off the
 * corpus, and the instant reply latency where the set asks for it. A set whose questions have
 * halves is reported tuning and held out apart; its held-out questions and replies are counted but
 * not printed (nor written by `--json`) unless `--show-heldout`, so that tuning never sees them.
 * `--json FILE` writes every figure and reply.
 */
const { values } = parseArgs({
  options: {
    set: { type: 'string' },
    half: { type: 'string' },
    corpus: { type: 'string' },
    questions: { type: 'string' },
    offcorpus: { type: 'string' },
    corpora: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    json: { type: 'string' },
    'show-heldout': { type: 'boolean', default: false },
  },
});

if (values.half && values.half !== 'tuning' && values.half !== 'heldout') {
  console.error('--half is tuning or heldout');
  process.exit(2);
}
const half = values.half as Half | undefined;
const corpora = corporaDir(values.corpora);
const chosen = values.corpus
  ? [ownSet(values.corpus)]
  : loadSets().filter((set) => !values.set || set.name.toLowerCase().includes(values.set.toLowerCase()));

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
      : /\.pdf$/i.test(corpus)
        ? 'pdf'
        : 'text';
  return {
    name: corpus,
    files: [{ path: corpus, format }],
    questions: values.questions,
    ...(values.offcorpus ? { offcorpus: values.offcorpus } : {}),
    latency: true,
  };
}

const mark = (judged: { hit: boolean; lead: boolean }) =>
  judged.lead ? 'lead' : judged.hit ? 'hit ' : 'miss';
const flag = (judged: Judged) =>
  judged.level === 'nearest' ? ' nearest' : judged.wrongCited ? ' WRONG-CITED' : '';

const results: { result: SetResult; latency?: string }[] = [];
for (const set of chosen) {
  console.log(`\n=== ${set.name}`);
  const { result, client, questions } = await runSet(set, {
    corpora,
    ...(half ? { half } : {}),
    onQuestion: (question) => {
      // Held-out questions are counted, not shown: whoever tunes the service reads the tuning half only.
      if (question.half === 'heldout' && !values['show-heldout']) return;
      console.log(
        `A ${mark(question.a)}  B ${mark(question.b)}  BM25 ${mark(question.base)}  ${question.half === 'heldout' ? '[held out] ' : ''}${question.q}${flag(question.a) ? `  (A${flag(question.a)})` : ''}${flag(question.b) ? `  (B${flag(question.b)})` : ''}`,
      );
      if (values.verbose) {
        console.log(`    A: ${oneLine(question.a.text)}`);
        console.log(`    B: ${oneLine(question.b.text)}`);
        console.log(`    BM25: ${oneLine(question.base.text)}`);
      }
    },
    onOffCorpus: (question) => {
      if (question.half === 'heldout' && !values['show-heldout']) return;
      if (!values.verbose && question.honestA && question.honestB) return;
      console.log(
        `off-corpus A ${question.honestA ? 'honest' : 'ANSWERED'}  B ${question.honestB ? 'honest' : 'ANSWERED'}  ${question.q}`,
      );
      if (!question.honestA) console.log(`    A: ${oneLine(question.textA)}`);
      if (!question.honestB) console.log(`    B: ${oneLine(question.textB)}`);
    },
  });
  for (const path of result.missing) console.log(`  (skipped ${path}: not on this machine)`);
  console.log(
    `trained ${result.tokens} tokens, ${result.passages} passages, ${result.sections} baseline sections in ${result.trainSeconds.toFixed(1)} s`,
  );
  for (const which of halvesOf(result)) printTally(which, tally(result, which));
  const latency = set.latency ? await instantLatency(client, questions) : undefined;
  if (latency) console.log(`instant reply: ${latency}`);
  results.push({ result, ...(latency ? { latency } : {}) });
}

function printTally(which: Half | undefined, t: Tally): void {
  const title = which === 'tuning' ? ' — tuning half' : which === 'heldout' ? ' — held-out half' : '';
  console.log(`hit (first ${HIT_WORDS} words) / lead (first ${LEAD_WORDS}) of ${t.asked}${title}:`);
  console.log(
    `  Variant A expert raw  ${t.aHit} / ${t.aLead}   nearest ${t.aNearest}, wrong but cited ${t.aWrongCited}`,
  );
  console.log(
    `  Variant B standard    ${t.bHit} / ${t.bLead}   nearest ${t.bNearest}, wrong but cited ${t.bWrongCited}`,
  );
  console.log(`  BM25 section baseline ${t.baseHit} / ${t.baseLead}`);
  if (t.offAsked) {
    console.log(
      `  honest "I don't know" off corpus (A, B): ${rate(t.aHonest, t.offAsked)}, ${rate(t.bHonest, t.offAsked)}`,
    );
  }
}

console.log(
  '\n| set | half | questions | A expert raw hit / lead | B standard hit / lead | BM25 sections hit / lead | nearest A, B | wrong but cited A, B | honest off corpus A, B |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const { result } of results) {
  for (const which of halvesOf(result)) {
    const t = tally(result, which);
    const honest = t.offAsked ? `${t.aHonest}/${t.offAsked}, ${t.bHonest}/${t.offAsked}` : '-';
    console.log(
      `| ${result.name} | ${which ?? 'all'} | ${t.asked} | ${t.aHit} / ${t.aLead} | ${t.bHit} / ${t.bLead} | ${t.baseHit} / ${t.baseLead} | ${t.aNearest}, ${t.bNearest} | ${t.aWrongCited}, ${t.bWrongCited} | ${honest} |`,
    );
  }
}
for (const { result, latency } of results)
  if (latency) console.log(`instant reply on ${result.name}: ${latency}`);

if (values.json) {
  const sets = results.map(({ result, latency }) => ({
    name: result.name,
    trainSeconds: result.trainSeconds,
    halves: Object.fromEntries(halvesOf(result).map((which) => [which ?? 'all', tally(result, which)])),
    ...(latency ? { latency } : {}),
    questions: result.questions.filter((question) => question.half !== 'heldout' || values['show-heldout']),
    offCorpus: result.offCorpus.filter((question) => question.half !== 'heldout' || values['show-heldout']),
  }));
  writeFileSync(values.json, `${JSON.stringify({ sets }, null, 2)}\n`);
  console.log(`(wrote ${values.json})`);
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
  if (times.length === 0) return 'no questions asked';
  times.sort((x, y) => x - y);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (in process, ${times.length} requests)`;
}
