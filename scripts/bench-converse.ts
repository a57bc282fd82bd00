import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CUT_MARK, countTokens } from '../lib/text/index.js';
import {
  type BenchClient,
  type BenchReply,
  type BenchTurn,
  benchClient,
  corporaDir,
  mentions,
  oneLine,
  rate,
  readBenchFile,
} from './bench-chat.js';
import { benchServices } from './bench-services.js';

/**
 * `npm run bench:converse [-- --corpora DIR] [--quiet]`: conversations and social messages through
 * the real handlers in process, on each interface a conversation arrives by (Variant A sessions,
 * Variant B `history`, /api/v1 `messages`). Prints, for corpora/kjv/converse-sample.json and the
 * unseen set bench/converse/unseen.json: follow-up hits against the same questions written out
 * (asked in fresh sessions); fitting and babbling social replies on a fresh install (the starter
 * text) and after training the KJV; and maxTokens compliance per path. The replies are printed too.
 */
const { values } = parseArgs({
  options: { corpora: { type: 'string' }, quiet: { type: 'boolean', default: false } },
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

// ---- follow-ups ----
const report: string[] = [];
for (const [name, set] of sets) {
  log(`\n=== follow-ups: ${name}`);
  const counts = Object.fromEntries(PATHS.map((path) => [path, { follow: 0, std: 0, first: 0 }]));
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
        const hit = mentions(reply.text, turn.a, HIT_WORDS);
        if (!turn.std && hit) counts[path]!.first++;
        if (turn.std && hit) counts[path]!.follow++;
        log(`    ${path} ${hit ? 'hit ' : 'miss'} ${oneLine(reply.text)}`);
        if (path === 'A' && reply.thought && i > 0) log(`         thought: ${oneLine(reply.thought, 160)}`);
        if (turn.std) {
          const written = await ask(client, path, turn.std);
          const stdHit = mentions(written.text, turn.a, HIT_WORDS);
          if (stdHit) counts[path]!.std++;
          log(`    ${path} ${stdHit ? 'hit ' : 'miss'} (written out) ${oneLine(written.text)}`);
        }
      }
    }
  }
  for (const path of PATHS) {
    const c = counts[path]!;
    const share = c.std ? Math.round((100 * c.follow) / c.std) : 0;
    report.push(
      `follow-ups ${name} ${path.padEnd(2)}: ${rate(c.follow, followUps)} vs written out ${rate(c.std, followUps)} = ${share}% of written-out hits; first turns ${rate(c.first, firsts)}`,
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
