import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CUT_MARK, countTokens } from '../lib/text/index.js';
import {
  type BenchClient,
  type BenchReply,
  type BenchTurn,
  benchClient,
  corporaDir,
  oneLine,
  rate,
  readBenchFile,
} from './bench-chat.js';
import {
  CONVERSE_PATHS,
  type ConverseTally,
  converseTally,
  runConversations,
  type TurnResult,
  trainedClient,
} from './bench-converse-docs.js';
import { replyMentions } from './bench-qa-core.js';
import { benchServices } from './bench-services.js';
import {
  type ConverseConversation,
  type ConverseFile,
  conversationFiles,
  findSet,
  loadSets,
  type QuestionSet,
} from './bench-sets.js';

/**
 * `npm run bench:converse [-- --corpora DIR] [--quiet]`: conversations and social messages through
 * the real handlers in process, on each interface a conversation arrives by (Variant A sessions,
 * Variant B `history`, /api/v1 `messages`). Prints, for corpora/kjv/converse-sample.json and the
 * unseen set bench/converse/unseen.json: follow-up hits against the same questions written out
 * (asked in fresh sessions); then the conversations of bench/converse/docs.json on the
 * documentation sets (bench-converse-docs.ts: follow-up vs written out vs bare, replies equal to
 * the bare reply, self-contained questions after a conversation, social turns inside one; tuning
 * and held-out halves apart, Variant A and B); fitting and babbling social replies on a fresh
 * install (the starter text) and after training the KJV; and maxTokens compliance per path. The
 * replies are printed too, except those of held-out conversations (counted only, unless
 * `--show-heldout`). `--docs-only [--set NAME]` runs only the documentation conversations;
 * `--json FILE` writes their figures and replies. `--file F` (repeatable) takes the conversations
 * from F instead of every `bench/converse/docs*.json`.
 */
const { values } = parseArgs({
  options: {
    corpora: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    'docs-only': { type: 'boolean', default: false },
    set: { type: 'string' },
    json: { type: 'string' },
    file: { type: 'string', multiple: true },
    'show-heldout': { type: 'boolean', default: false },
  },
});

interface Turn {
  q: string;
  std?: string;
  a: string[];
}
interface Conversation {
  corpus: string;
  turns: Turn[];
}
interface Social {
  q: string;
  ok: string;
}
interface ConverseSet {
  conversations: Conversation[];
  social: Social[];
}

const HIT_WORDS = 60;
const LIMITS = [1, 3, 5, 20];
const PATHS = ['A', 'B', 'v1'] as const;
type Path = (typeof PATHS)[number];

const corpora = corporaDir(values.corpora);
const sets: [string, ConverseSet][] = [
  ['sample', JSON.parse(readBenchFile('corpora/kjv/converse-sample.json', corpora)!) as ConverseSet],
  ['unseen', JSON.parse(readFileSync('bench/converse/unseen.json', 'utf8')) as ConverseSet],
];
const log = (line: string) => {
  if (!values.quiet) console.log(line);
};

let sessions = 0;
/** One conversation on one path: each call asks the next message with what came before. */
function conversationOn(client: BenchClient, path: Path, maxTokens = 400) {
  const session = `converse-${++sessions}`;
  const turns: BenchTurn[] = [];
  return async (message: string): Promise<BenchReply> => {
    const reply =
      path === 'A'
        ? await client.askA(message, { sessionId: session, modelMode: 'expert', maxTokens })
        : path === 'B'
          ? await client.askB(message, { history: [...turns], maxTokens })
          : await client.askV1([...turns, { role: 'user', content: message }], { max_tokens: maxTokens });
    turns.push({ role: 'user', content: message }, { role: 'assistant', content: reply.text });
    return reply;
  };
}

const ask = (client: BenchClient, path: Path, message: string, maxTokens = 400) =>
  conversationOn(client, path, maxTokens)(message);

// ---- the services: a fresh install, then the same install after training each corpus ----
const trained = new Map<string, BenchClient>();
async function clientFor(corpus: string): Promise<BenchClient> {
  const known = trained.get(corpus);
  if (known) return known;
  const services = await benchServices(undefined, { starter: true });
  const client = benchClient(services);
  const started = performance.now();
  await client.train(readBenchFile(`corpora/kjv/${corpus}`, corpora)!, {
    format: 'text',
    name: corpus.split('/').pop(),
  });
  log(`(trained ${corpus} in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  trained.set(corpus, client);
  return client;
}
const fresh = benchClient(await benchServices(undefined, { starter: true }));

const report: string[] = [];

// ---- conversations on the documentation sets ----
const docsFiles = values.file ?? conversationFiles();
const conversations = docsFiles.flatMap(
  (file) => (JSON.parse(readFileSync(file, 'utf8')) as ConverseFile).conversations,
);
const qaSets = loadSets();
const bySet = new Map<QuestionSet, { index: number; conversation: ConverseConversation }[]>();
for (const [index, conversation] of conversations.entries()) {
  const set = findSet(qaSets, conversation.set);
  if (values.set && !set.name.toLowerCase().includes(values.set.toLowerCase())) continue;
  bySet.set(set, [...(bySet.get(set) ?? []), { index, conversation }]);
}
const docsJson: { name: string; figures: Record<string, ConverseTally>; turns: TurnResult[] }[] = [];
for (const [set, conversations] of bySet) {
  log(`\n=== conversations on ${set.name}`);
  const started = performance.now();
  const { client, documentShingles } = await trainedClient(set, corpora);
  log(`(trained in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const turns = await runConversations(client, documentShingles, conversations, (result, turn) => {
    // Held-out conversations are counted, not shown: whoever tunes the service reads the tuning half only.
    if (result.half === 'heldout' && !values['show-heldout']) return;
    const held = result.half === 'heldout' ? '[held out] ' : '';
    const head = `  ${result.path} #${result.conversation + 1} ${held}${result.kind.padEnd(14)}`;
    if (result.kind === 'social') {
      log(
        `${head} ${result.fits ? 'fits  ' : 'MISFIT'} ${turn.q} → ${oneLine(result.reply)}${result.misfit ? ` (${result.misfit})` : ''}`,
      );
      return;
    }
    log(
      `${head} ${result.hit ? 'hit ' : 'miss'} ${turn.q} [${(turn.a ?? []).join(', ')}] → ${oneLine(result.reply)}`,
    );
    if (result.written)
      log(
        `      ${result.written.hit ? 'hit ' : 'miss'} written out: ${turn.std} → ${oneLine(result.written.reply)}`,
      );
    if (result.bare)
      log(
        `      ${result.bare.hit ? 'hit ' : 'miss'} bare${result.bare.same ? ' (SAME as in the conversation)' : ''}: ${oneLine(result.bare.reply)}`,
      );
    if (result.fresh)
      log(`      ${result.fresh.hit ? 'hit ' : 'miss'} asked fresh: ${oneLine(result.fresh.reply)}`);
    if (result.thought) log(`      thought: ${oneLine(result.thought, 160)}`);
  });
  const figures: Record<string, ConverseTally> = {};
  for (const half of ['tuning', 'heldout'] as const) {
    for (const path of CONVERSE_PATHS) {
      const t = converseTally(turns, path, half);
      figures[`${path} ${half}`] = t;
      const share = t.writtenHits ? Math.round((100 * t.followHits) / t.writtenHits) : 0;
      report.push(
        `docs ${set.name} ${half.padEnd(7)} ${path}: follow-ups ${t.followHits}/${t.followUps} vs written out ${t.writtenHits}/${t.followUps} (${share}%) vs bare ${t.bareHits}/${t.followUps}; equal to the bare reply ${t.sameAsBare}/${t.followUps}; self-contained in a conversation ${t.selfInConversation}/${t.selfContained} vs fresh ${t.selfFresh}/${t.selfContained}; social fitting ${t.fitting}/${t.social}; first turns ${t.firstHits}/${t.first}`,
      );
    }
  }
  docsJson.push({
    name: set.name,
    figures,
    turns: turns.filter((turn) => turn.half !== 'heldout' || values['show-heldout']),
  });
}
if (values.json) {
  writeFileSync(values.json, `${JSON.stringify({ sets: docsJson }, null, 2)}\n`);
  log(`(wrote ${values.json})`);
}
if (values['docs-only']) {
  console.log('\n=== summary');
  for (const line of report) console.log(line);
  process.exit(0);
}

// ---- follow-ups ----
for (const [name, set] of sets) {
  log(`\n=== follow-ups: ${name}`);
  const counts = Object.fromEntries(
    PATHS.map((path) => [path, { follow: 0, std: 0, first: 0, bare: 0, same: 0 }]),
  );
  let followUps = 0;
  let firsts = 0;
  for (const conversation of set.conversations) {
    const client = await clientFor(conversation.corpus);
    const next = Object.fromEntries(PATHS.map((path) => [path, conversationOn(client, path)]));
    for (const [i, turn] of conversation.turns.entries()) {
      if (turn.std) followUps++;
      else firsts++;
      log(`  ${turn.q}${turn.std ? `   (written out: ${turn.std})` : ''}   [${turn.a.join(', ')}]`);
      for (const path of PATHS) {
        const reply = await next[path]!(turn.q);
        const hit = replyMentions(reply, turn.a, HIT_WORDS);
        if (!turn.std && hit) counts[path]!.first++;
        if (turn.std && hit) counts[path]!.follow++;
        log(`    ${path} ${hit ? 'hit ' : 'miss'} ${oneLine(reply.text)}`);
        if (path === 'A' && reply.thought && i > 0) log(`         thought: ${oneLine(reply.thought, 160)}`);
        if (turn.std) {
          const written = await ask(client, path, turn.std);
          const stdHit = replyMentions(written, turn.a, HIT_WORDS);
          if (stdHit) counts[path]!.std++;
          log(`    ${path} ${stdHit ? 'hit ' : 'miss'} (written out) ${oneLine(written.text)}`);
          // The follow-up alone in a fresh session: the conversation's reply equal to it means the history went unused.
          const bare = await ask(client, path, turn.q);
          const bareHit = replyMentions(bare, turn.a, HIT_WORDS);
          const same = bare.text.replace(/\s+/g, ' ').trim() === reply.text.replace(/\s+/g, ' ').trim();
          if (bareHit) counts[path]!.bare++;
          if (same) counts[path]!.same++;
          log(
            `    ${path} ${bareHit ? 'hit ' : 'miss'} (bare${same ? ', SAME as in the conversation' : ''}) ${oneLine(bare.text)}`,
          );
        }
      }
    }
  }
  for (const path of PATHS) {
    const c = counts[path]!;
    const share = c.std ? Math.round((100 * c.follow) / c.std) : 0;
    report.push(
      `follow-ups ${name} ${path.padEnd(2)}: ${rate(c.follow, followUps)} vs written out ${rate(c.std, followUps)} = ${share}% of written-out hits; bare ${rate(c.bare, followUps)}, equal to the bare reply ${c.same}/${followUps}; first turns ${rate(c.first, firsts)}`,
    );
  }
}

// ---- social turns, on a fresh install and after training the KJV ----
const kjv = await clientFor('kjv.raw.txt');
for (const [install, client] of [
  ['fresh install', fresh],
  ['after training the KJV', kjv],
] as const) {
  for (const [name, set] of sets) {
    log(`\n=== social: ${name}, ${install}`);
    const counts = Object.fromEntries(PATHS.map((path) => [path, { fit: 0, babble: 0 }]));
    for (const social of set.social) {
      for (const path of PATHS) {
        const reply = await ask(client, path, social.q);
        const fits = new RegExp(social.ok, 'i').test(reply.text) && !/I don't know about/i.test(reply.text);
        const babble = !fits && babbled(reply);
        if (fits) counts[path]!.fit++;
        if (babble) counts[path]!.babble++;
        log(
          `  ${path.padEnd(2)} ${fits ? 'fits  ' : babble ? 'BABBLE' : 'misfit'} ${social.q} → ${oneLine(reply.text)}`,
        );
      }
    }
    for (const path of PATHS) {
      const c = counts[path]!;
      report.push(
        `social ${name}, ${install} ${path.padEnd(2)}: fitting ${rate(c.fit, set.social.length)}, babble ${c.babble}`,
      );
    }
  }
}

/**
 * Babble: a reply that does not fit and is not an honest "I don't know …" either: word salad, a
 * passage that merely shares a word ("thanks!" → "Thanks set forth for an hundred talents of
 * gold."), or the greeting searched for ("I don't know about "thanks"").
 */
function babbled(reply: BenchReply): boolean {
  return /I don't know about/i.test(reply.text) || !/^I don't know\b/i.test(reply.text);
}

// ---- maxTokens on every path ----
log('\n=== maxTokens');
const messages = [
  ...sets.flatMap(([, set]) =>
    set.conversations
      .filter((conversation) => conversation.corpus === 'kjv.raw.txt')
      .flatMap((conversation) => conversation.turns.map((turn) => turn.std ?? turn.q)),
  ),
  ...sets.flatMap(([, set]) => set.social.map((social) => social.q)),
];
for (const path of PATHS) {
  let kept = 0;
  let checks = 0;
  const broken: string[] = [];
  for (const message of messages) {
    const whole = await ask(kjv, path, message);
    for (const max of LIMITS) {
      checks++;
      const reply = await ask(kjv, path, message, max);
      const tokens = countTokens(reply.text);
      // "length" exactly when the reply was cut (it ends with the cut mark, or is one word of a longer one).
      const cut = reply.text.endsWith(CUT_MARK) || (max === 1 && countTokens(whole.text) > 1 && tokens === 1);
      const problems = [
        tokens > max ? `${tokens} tokens` : '',
        reply.tokens !== undefined && reply.tokens !== tokens
          ? `says ${reply.tokens} tokens, has ${tokens}`
          : '',
        reply.finish !== undefined && reply.finish !== (cut ? 'length' : 'stop')
          ? `finish_reason ${reply.finish}`
          : '',
      ].filter(Boolean);
      if (problems.length === 0) kept++;
      else
        broken.push(
          `${path} maxTokens ${max} "${message}": ${problems.join(', ')} → ${oneLine(reply.text, 120)}`,
        );
      if (max === 3) log(`  ${path.padEnd(2)} maxTokens 3: ${message} → ${reply.text}`);
    }
  }
  for (const line of broken) log(`  BROKEN ${line}`);
  report.push(
    `maxTokens ${path.padEnd(2)}: kept ${rate(kept, checks)} (1, 3, 5, 20 on ${messages.length} messages)`,
  );
}

console.log('\n=== summary');
for (const line of report) console.log(line);
