import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { corporaDir } from './bench-chat.js';
import {
  type ConverseFile,
  conversationFiles,
  findSet,
  heldOutIndexes,
  loadSets,
  offCorpusQuestions,
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
 * `--set NAME --split` (run once, when a set is written, before any reply is seen) draws the held-out half of
 * a set whose questions have no `half` yet: 20 questions answered by the documents and half of the
 * off-corpus ones, with a fixed seed (HALVES_SEED), and writes `half` into the files.
 * `--split` alone draws only conversation halves: per conversation file and set, for the groups
 * none of whose conversations has a half yet (a new file, or a set new to a file).
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
  // Question halves are drawn for one named set at a time; `--split` alone draws conversations only.
  if (values.split && values.set) {
    split(set.name, set.questions, questions, HELD_OUT, !set.where);
    if (set.offcorpus) {
      const off = offCorpusQuestions(set, corpora);
      split(set.name, set.offcorpus, off, Math.floor(off.length / 2), !set.where);
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
  const off = offCorpusQuestions(set, corpora);
  console.log(
    `${set.name}: ${documents.length} documents, ${questions.length} questions${halves(questions)}, ${words} acceptable words; ${off.length} off corpus${halves(off)}`,
  );
}
for (const file of conversationFiles()) await checkConversations(file);
if (failures) {
  console.log(`${failures} failure(s)`);
  process.exit(1);
}
console.log('every acceptable word is in its set as a whole word and in no question');

function fail(message: string): void {
  failures++;
  console.log(`FAIL ${message}`);
}

/**
 * Writes `half` into a question file of this repository (bench/…) whose questions have none yet;
 * never a shared corpus file, never a file a set reads only part of (`where`).
 */
function split(setName: string, file: string, questions: Question[], heldout: number, whole: boolean): void {
  if (!file.startsWith('bench/') || !whole) return;
  if (questions.length === 0 || questions.some((question) => question.half)) return;
  const chosen = heldOutIndexes(questions.length, heldout, `${setName}|${file}`);
  const withHalves = questions.map((question, i) => ({
    ...question,
    half: chosen.has(i) ? 'heldout' : 'tuning',
  }));
  writeFileSync(resolveSetPath(file, corpora), `${JSON.stringify(withHalves, null, 2)}\n`);
  console.log(`${file}: ${heldout} of ${questions.length} held out`);
}

/**
 * The conversations of `file`: every acceptable word is in the documents of the conversation's
 * set and in neither the turn's message nor its written-out form. With `--split`, draws the
 * held-out half (half of the conversations of each set, seed HALVES_SEED) where none is drawn yet.
 */
async function checkConversations(file: string): Promise<void> {
  const converse = JSON.parse(readFileSync(file, 'utf8')) as ConverseFile;
  const sets = loadSets();
  const texts = new Map<string, string>();
  const byName = new Map<string, number[]>();
  for (const [c, conversation] of converse.conversations.entries()) {
    const set = findSet(sets, conversation.set);
    if (values.set && !set.name.toLowerCase().includes(values.set.toLowerCase())) continue;
    byName.set(set.name, [...(byName.get(set.name) ?? []), c]);
    if (!texts.has(set.name)) {
      const { documents } = await setDocuments(set, corpora);
      texts.set(set.name, documents.map(readableText).join('\n'));
    }
    const text = texts.get(set.name)!;
    for (const turn of conversation.turns) {
      for (const word of turn.a ?? []) {
        const where = `${file} conversation ${c + 1} "${turn.q}"`;
        if (!wholeWord(word).test(text)) fail(`${where}: "${word}" not in ${set.name} as read`);
        else if (wholeWord(word).test(turn.q) || (turn.std && wholeWord(word).test(turn.std))) {
          fail(`${where}: "${word}" occurs in the question itself`);
        }
      }
    }
  }
  if (values.split) {
    // Drawn once per file and set, when that file's conversations on the set were written: only
    // a group none of whose conversations has a half yet, so that a new file (or a set new to a
    // file) gets halves of its own while every half already drawn, in this file or another, stays.
    let drawn = false;
    for (const [name, indexes] of byName) {
      if (indexes.some((c) => converse.conversations[c]!.half)) continue;
      const chosen = heldOutIndexes(indexes.length, Math.floor(indexes.length / 2), `${name}|${file}`);
      indexes.forEach((c, i) => {
        converse.conversations[c]!.half = chosen.has(i) ? 'heldout' : 'tuning';
      });
      drawn = true;
    }
    // Only a file that got new halves is written: rewriting the others would reformat them.
    if (drawn) writeFileSync(file, `${JSON.stringify(converse, null, 2)}\n`);
  }
  for (const [name, indexes] of byName) {
    const turns = indexes.flatMap((c) =>
      converse.conversations[c]!.turns.map((turn) => ({ ...turn, half: converse.conversations[c]!.half })),
    );
    const count = (half: string, pick: (turn: (typeof turns)[number]) => boolean) =>
      turns.filter((turn) => turn.half === half && pick(turn)).length;
    const follow = (turn: (typeof turns)[number]) => Boolean(turn.std);
    console.log(
      `${file} on ${name}: ${indexes.length} conversations, follow-ups ${count('tuning', follow)} tuning / ${count('heldout', follow)} held out, self-contained ${turns.filter((turn) => turn.fresh).length}, social ${turns.filter((turn) => turn.social).length}`,
    );
  }
}
