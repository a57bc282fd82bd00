import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { corporaDir } from './bench-chat.js';
import {
  heldOutIndexes,
  loadSets,
  type Question,
  readableText,
  resolveSetPath,
  setDocuments,
  setQuestions,
} from './bench-sets.js';

/**
 * `npx tsx scripts/bench-qa-check.ts [--set NAME] [--split]`: checks the question files of
 * bench/qa/sets.json against their documents, as read by the service's own readers: every
 * acceptable word occurs in the set's documents as a whole word (case-insensitive), and none occurs
 * in its own question, so that echoing the question never counts as an answer. Prints the halves.
 * `--split` (run once, when a set is written, before any reply is seen) draws the held-out half of
 * a set whose questions have no `half` yet: 20 questions answered by the documents and half of the
 * off-corpus ones, with a fixed seed (HALVES_SEED), and writes `half` into the files.
 */
const { values } = parseArgs({
  options: {
    set: { type: 'string' },
    corpora: { type: 'string' },
    split: { type: 'boolean', default: false },
  },
});

const HELD_OUT = 20;
const corpora = corporaDir(values.corpora);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wholeWord = (word: string) => new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(word)}(?![A-Za-z0-9_])`, 'i');

let failures = 0;
for (const set of loadSets()) {
  if (values.set && !set.name.toLowerCase().includes(values.set.toLowerCase())) continue;
  const questions = setQuestions(set, corpora);
  const { documents, missing } = await setDocuments(set, corpora);
  if (missing.length) console.log(`(${set.name}: not on this machine: ${missing.join(', ')})`);
  const text = documents.map(readableText).join('\n');
  const raw = documents.map((document) => document.text).join('\n');
  if (values.split) {
    split(set.name, set.questions, questions, HELD_OUT);
    if (set.offcorpus) {
      const off = setQuestions(set, corpora, set.offcorpus);
      split(set.name, set.offcorpus, off, Math.floor(off.length / 2));
    }
  }
  let words = 0;
  for (const [i, { q, a = [] }] of questions.entries()) {
    const where = `${set.name} #${i + 1} "${q}"`;
    if (a.length === 0) fail(`${where}: no acceptable words`);
    for (const word of a) {
      words++;
      if (!wholeWord(word).test(text)) {
        fail(
          `${where}: "${word}" not in the documents as read${wholeWord(word).test(raw) ? ' (it is in the raw text)' : ''}`,
        );
      } else if (wholeWord(word).test(q)) fail(`${where}: "${word}" occurs in the question itself`);
    }
  }
  const halves = (list: Question[]) =>
    list.some((question) => question.half)
      ? ` (${list.filter((question) => question.half === 'tuning').length} tuning, ${list.filter((question) => question.half === 'heldout').length} held out)`
      : '';
  const off = set.offcorpus ? setQuestions(set, corpora, set.offcorpus) : [];
  console.log(
    `${set.name}: ${documents.length} documents, ${questions.length} questions${halves(questions)}, ${words} acceptable words; ${off.length} off corpus${halves(off)}`,
  );
}
if (failures) {
  console.log(`${failures} failure(s)`);
  process.exit(1);
}
console.log('every acceptable word is in its set as a whole word and in no question');

function fail(message: string): void {
  failures++;
  console.log(`FAIL ${message}`);
}

/** Writes `half` into a question file whose questions have none yet. */
function split(setName: string, file: string, questions: Question[], heldout: number): void {
  if (questions.length === 0 || questions.some((question) => question.half)) return;
  const chosen = heldOutIndexes(questions.length, heldout, `${setName}|${file}`);
  const withHalves = questions.map((question, i) => ({
    ...question,
    half: chosen.has(i) ? 'heldout' : 'tuning',
  }));
  writeFileSync(resolveSetPath(file, corpora), `${JSON.stringify(withHalves, null, 2)}\n`);
  console.log(`${file}: ${heldout} of ${questions.length} held out`);
}
