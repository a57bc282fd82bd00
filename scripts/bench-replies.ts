/**
 * `npm run bench:replies -- [--root DIR] [--out FILE]`: every reply to a fixed list of messages,
 * for telling that a change meant to make the service faster left its replies byte for byte as
 * they were. Trains an in-process service (seeded random source, so the sampled paths are fixed
 * too) on the KJV and asks the KJV samples (questions, conversations, follow-ups, small talk) in
 * every mode of Variant A and Variant B, fresh and in one long session; then the starter guide
 * with its questions. Made-up text is left out: the generator stops at a time budget, so what it
 * writes depends on the machine's speed. Prints one JSON line per reply and the SHA-256 of them all.
 *
 * `--root DIR` runs the same list against another checkout (its scripts/bench-services.ts and
 * bench-chat.ts, so its lib/): `--root ../main` before, this tree after, then compare the hashes
 * (or the files of `--out`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const ROOT = resolve(option('--root') ?? resolve(import.meta.dirname, '..'));
const HERE = resolve(import.meta.dirname, '..');
const KJV_DIR =
  process.env.KJV_DIR ??
  [resolve(HERE, '../shared/corpora/kjv'), resolve(HERE, '../../shared/corpora/kjv')].find((dir) =>
    existsSync(dir),
  ) ??
  resolve(HERE, '../shared/corpora/kjv');

type Client = import('./bench-chat.js').BenchClient;
const { benchServices } = (await import(
  pathToFileURL(join(ROOT, 'scripts/bench-services.ts')).href
)) as typeof import('./bench-services.js');
const { benchClient } = (await import(
  pathToFileURL(join(ROOT, 'scripts/bench-chat.ts')).href
)) as typeof import('./bench-chat.js');

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const SMALL_TALK = [
  'hello there',
  'good morning to you',
  'thanks, bye',
  'who are you?',
  'what can you do',
  'ok thanks',
];
const MODES_A = ['instant', 'expert', 'apex'] as const;
const MODES_B = ['standard', 'think', 'deep_think'] as const;

const lines: string[] = [];
function record(entry: Record<string, unknown>): void {
  lines.push(JSON.stringify(entry));
}

/** Each message in a fresh session, in every mode of both variants, at the default temperature and at 0. */
async function askEverywhere(client: Client, set: string, messages: string[]): Promise<void> {
  let session = 0;
  for (const message of messages) {
    for (const temperature of [0.7, 0]) {
      for (const mode of MODES_A) {
        const reply = await client.askA(message, {
          sessionId: `replies-${session++}`,
          modelMode: mode,
          raw: true,
          ...(temperature === 0 ? { temperature } : {}),
        } as Parameters<Client['askA']>[1]);
        record({ set, message, variant: 'A', mode, temperature, ...reply });
      }
    }
    for (const mode of MODES_B) {
      const reply = await client.askB(message, { mode });
      record({ set, message, variant: 'B', mode, ...reply });
    }
  }
}

/** The turns of each conversation in one session of Variant A, and with their history in Variant B. */
async function converse(
  client: Client,
  set: string,
  conversations: { turns: { q: string }[] }[],
): Promise<void> {
  let session = 0;
  for (const conversation of conversations) {
    for (const mode of ['instant', 'expert'] as const) {
      const sessionId = `conversation-${session++}`;
      for (const turn of conversation.turns) {
        const reply = await client.askA(turn.q, { sessionId, modelMode: mode, raw: true });
        record({ set, message: turn.q, variant: 'A', mode, sessionId, ...reply });
      }
    }
    const history: { role: 'user' | 'assistant'; content: string }[] = [];
    for (const turn of conversation.turns) {
      const reply = await client.askB(turn.q, { history: [...history] });
      record({ set, message: turn.q, variant: 'B', mode: 'standard', history: history.length, ...reply });
      history.push({ role: 'user', content: turn.q }, { role: 'assistant', content: reply.text });
    }
  }
}

async function main(): Promise<void> {
  const kjvText = readFileSync(join(KJV_DIR, 'kjv.raw.txt'), 'utf8');
  const kjv = benchClient(await benchServices(kjvText));
  const qa = readJson<{ q: string }[]>(join(KJV_DIR, 'qa-sample.json')).map((item) => item.q);
  const offCorpus = readJson<{ q: string }[]>(join(HERE, 'bench/qa/kjv-offcorpus.json')).map(
    (item) => item.q,
  );
  await askEverywhere(kjv, 'kjv', ['tell me about wisdom', ...qa, ...offCorpus.slice(0, 8), ...SMALL_TALK]);
  const sample = readJson<{ conversations: { turns: { q: string }[] }[] }>(
    join(KJV_DIR, 'converse-sample.json'),
  );
  const unseen = readJson<{ conversations: { corpus?: string; turns: { q: string }[] }[] }>(
    join(HERE, 'bench/converse/unseen.json'),
  );
  await converse(kjv, 'kjv conversations', [
    ...sample.conversations,
    ...unseen.conversations.filter((c) => !c.corpus || c.corpus === 'kjv.raw.txt'),
  ]);
  // One long session, as the load bench's first rows run it: the same message again and again.
  for (const mode of ['instant', 'expert'] as const) {
    for (let i = 0; i < 25; i++) {
      const reply = await kjv.askA('tell me about wisdom', {
        sessionId: `long-${mode}`,
        modelMode: mode,
        raw: true,
      });
      record({ set: 'kjv long session', message: 'tell me about wisdom', mode, turn: i, ...reply });
    }
  }

  const guideText = readFileSync(join(ROOT, 'lib/starter/guide.txt'), 'utf8');
  const guide = benchClient(await benchServices(guideText));
  const guideQuestions = readJson<{ q: string }[]>(join(HERE, 'bench/qa/guide-questions.json')).map(
    (item) => item.q,
  );
  const guideOff = readJson<{ q: string }[]>(join(HERE, 'bench/qa/guide-offcorpus.json')).map(
    (item) => item.q,
  );
  await askEverywhere(guide, 'guide', [...guideQuestions, ...guideOff.slice(0, 8), ...SMALL_TALK]);

  const text = `${lines.join('\n')}\n`;
  const out = option('--out');
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
  process.stdout.write(
    `${lines.length} replies, sha256 ${createHash('sha256').update(text).digest('hex')} (${ROOT})\n`,
  );
  process.exit(0);
}

await main();
