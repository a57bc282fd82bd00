import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extract } from '../../lib/pipeline/extract/index.js';
import { gather, namePhrases } from '../../lib/pipeline/gather.js';
import { assist, replyFromArticle } from '../../lib/pipeline/index.js';
import { judge } from '../../lib/pipeline/judge.js';
import { proximityOf, rank } from '../../lib/pipeline/rank.js';
import { evidenceBudgets } from '../../lib/pipeline/types.js';
import { type Reading, understand } from '../../lib/pipeline/understand/index.js';
import { shapeOf } from '../../lib/pipeline/understand/shape.js';
import { createProvider } from '../../lib/provider/index.js';
import { termsOf } from '../../lib/retrieval/index.js';
import { type OpenAIStandin, type RecordedRequest, startOpenAIStandin } from '../support/openai-standin.js';
import { askPipeline } from '../support/pipeline.js';
import { embeddedServices } from '../support/services.js';

/** A small reference page, written as option documentation is. */
const CLIENT = `# fetchkit

## Options

### retries (Number)

How many times a failed request is tried again. The default is 2.

### timeout (Number)

How long a request may take, in milliseconds, before it is abandoned. Defaults to 10000.

## Troubleshooting

### Certificate errors

A request to a server with a self-signed certificate fails with an error about the certificate chain.

Set the \`ca\` option to the server's certificate to trust it.

## Proxies

Requests go through the proxy named in HTTPS_PROXY. To bypass the proxy for a host, list it in NO_PROXY:

\`\`\`bash
export NO_PROXY=internal.example.com
\`\`\`
`;

const TRACELOG = `# tracelog

## Environment variables

- \`TRACE\`: Enables or disables the tracing of chosen channels.
- \`TRACE_COLORS\`: Whether or not to use colors in the trace output.
- \`TRACE_DEPTH\`: Object inspection depth of the trace output.
`;

const FAMILY = [
  'Marla Quist was the mother in law of Ondine.',
  'Marla Quist came from the town of Veldhaven, on the northern coast.',
  'The husband of Marla Quist was Tobin Quist, a lighthouse keeper.',
  'Tobin Quist kept the lighthouse because the harbour of Veldhaven had no other light.',
].join('\n');

async function knowledgeOf(
  ...documents: { format: 'markdown' | 'text' | 'html'; name: string; text: string }[]
) {
  const services = embeddedServices({}, { random: () => 0.5 });
  for (const document of documents) await services.model.train(document);
  return services.model.knowledge();
}

function readingOf(question: string, extra: Partial<Reading> = {}): Reading {
  return { question, carried: '', shape: shapeOf(question), resolved: false, prior: -1, said: [], ...extra };
}

const ask = askPipeline;

describe('understand', () => {
  it('reads what kind of unit a question wants from its structure', () => {
    expect(shapeOf('Which option sets how often a request is retried?').wants).toBe('name');
    expect(shapeOf('Is compression on by default?').wants).toBe('default');
    expect(shapeOf('How do I bypass the proxy?').wants).toBe('procedure');
    expect(shapeOf('Why does the request fail?').wants).toBe('reason');
    expect(shapeOf('What is a proxy?').wants).toBe('fact');
    // The head of a compound noun comes last: "SQL function", "shell variable" ask for a name.
    expect(shapeOf('Which SQL function loads an extension?').wants).toBe('name');
    expect(shapeOf('What shell variable holds the prompt?').wants).toBe('name');
    expect(shapeOf('What is the function of a proxy?').wants).toBe('fact');
  });

  it('reads "which X" where English fronts it with a preposition or the phrase it belongs to', () => {
    expect(shapeOf('In which town was the bridge built?')).toMatchObject({ kind: 'choice', focus: 'town' });
    expect(shapeOf('The walls of which fort fell at dawn?')).toMatchObject({ kind: 'choice', focus: 'fort' });
    expect(shapeOf('Toward which harbour did the ship sail?')).toMatchObject({
      kind: 'choice',
      focus: 'harbour',
    });
    expect(shapeOf('In what year was the bridge built?').kind).toBe('time');
    // The head of "X of Y" is X: "which version of Node.js is required?" asks for a version.
    expect(shapeOf('In which city of Vell was the treaty signed?')).toMatchObject({
      kind: 'choice',
      focus: 'city',
      focusOf: 'vell',
    });
    expect(shapeOf('Which version of the runtime is required?').focus).toBe('version');
    // Not a fronted "which": a relative clause after a noun phrase.
    expect(shapeOf('The files of which the archive is made are listed where?').kind).not.toBe('choice');
  });

  it('gives a message that leans on the conversation a second, resolved reading; one that stands alone keeps one', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const history = [
      { role: 'user' as const, content: 'How do I bypass the proxy for a host?' },
      { role: 'assistant' as const, content: ask(knowledge, 'How do I bypass the proxy for a host?').text },
    ];
    const leaning = understand(knowledge, 'How do I undo it?', history);
    expect(leaning.kind).toBe('question');
    if (leaning.kind !== 'question') return;
    expect(leaning.readings).toHaveLength(2);
    const [, resolved] = leaning.readings;
    expect(resolved.resolved).toBe(true);
    // "it" stands for the earlier answer's topic, or the earlier question's words are carried.
    expect(resolved.question !== 'How do I undo it?' || resolved.carried !== '').toBe(true);
    expect(leaning.readings[1].prior).toBeGreaterThanOrEqual(0);
    const alone = understand(knowledge, 'How long may a request take?', history);
    expect(alone.kind === 'question' && alone.readings).toHaveLength(1);
  });

  it('reads a longer question with "it" as leaning on the conversation, but not the "it" of "is it possible"', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const history = [
      { role: 'user' as const, content: 'What is the default timeout?' },
      { role: 'assistant' as const, content: ask(knowledge, 'What is the default timeout?').text },
    ];
    const leaning = understand(knowledge, 'What happens when a request runs past it?', history);
    expect(leaning.kind === 'question' && leaning.readings.some((reading) => reading.resolved)).toBe(true);
    const dummy = understand(knowledge, 'Is it possible to retry a request?', history);
    expect(dummy.kind === 'question' && dummy.readings).toHaveLength(1);
    // "Show me an example" is all request: only the earlier question is searched.
    const example = understand(knowledge, 'Show me an example', history);
    expect(example.kind === 'question' && example.readings.map((reading) => reading.resolved)).toEqual([
      true,
    ]);
  });

  it('does not state a unit that shares nothing with the earlier question as the answer to "how do I undo it?"', async () => {
    const knowledge = await knowledgeOf(
      { format: 'markdown', name: 'client.md', text: CLIENT },
      {
        format: 'markdown',
        name: 'migrations.md',
        text: '# Migrations\n\n## Actions\n\nThe action is do or undo: do applies a version, undo reverts it.\n',
      },
    );
    const question = 'How do I bypass the proxy for a host?';
    const history = [
      { role: 'user' as const, content: question },
      { role: 'assistant' as const, content: ask(knowledge, question).text },
    ];
    const reply = ask(knowledge, 'And how do I undo it?', history);
    expect(reply.confidence.level).not.toBe('answer');
  });

  it('answers small talk from the dialogue layer and sends nothing else there', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    expect(understand(knowledge, 'thanks!', []).kind).toBe('social');
    expect(understand(knowledge, 'What is the default timeout?', []).kind).toBe('question');
  });
});

describe('gather and rank', () => {
  it('finds a unit by the words of a camelCase name it is written under', async () => {
    const knowledge = await knowledgeOf({
      format: 'markdown',
      name: 'server.md',
      text: '# Server\n\n### keepAliveTimeout\n\nIdle connections are closed after this many milliseconds.\n\n### other\n\nSomething else entirely.\n',
    });
    expect(termsOf('keepAliveTimeout')).toEqual(['keepalivetimeout', 'keep', 'aliv', 'timeout']);
    const searches = gather(
      knowledge.passages,
      [readingOf('When is an alive connection timed out?')],
      evidenceBudgets.expert,
      false,
    );
    const [best] = rank(knowledge.passages, searches, 'When is an alive connection timed out?');
    expect(knowledge.passages.text(best.hit.id)).toMatch(/^Idle connections are closed/);
  });

  it('puts the entry a question names by its identifier first, opening with its definition', async () => {
    const knowledge = await knowledgeOf({
      format: 'markdown',
      name: 'codes.md',
      text: [
        '# Result codes',
        'Every call returns a result code; a code other than OK is an error.',
        '## (1) GENERIC',
        'The GENERIC result code is a generic error code, used when no other error code applies.',
        '## (2) FULL',
        'The FULL result code says the disk is full: an insert or update error, not a corrupt store.',
        '## (261) LOCK_BUSY_RECOVERY',
        'The LOCK_BUSY_RECOVERY error code is an extended error code for LOCK_BUSY that says another process is recovering the store after a crash.',
        '## (5) LOCK_BUSY',
        'The LOCK_BUSY result code says that the store could not be written because another connection holds it.',
        'A LOCK_BUSY error can occur at any point in a transaction, even when it commits.',
      ].join('\n\n'),
    });
    expect(ask(knowledge, 'What does the LOCK_BUSY error mean?').text).toMatch(
      /^The LOCK_BUSY result code says/,
    );
  });

  it('answers "what is X?" from the glossary entry named X, not from a passage that uses X', async () => {
    // The tutorial's passage holds both words more often and scores higher by BM25 alone.
    const knowledge = await knowledgeOf({
      format: 'html',
      name: 'guide.html',
      text:
        '<body><h1>Classes<a class="headerlink" href="#classes">¶</a></h1>' +
        '<p>A class variable is shared: a class variable changed through one instance is changed for every ' +
        'instance, so a mutable class variable such as a list is a common mistake in a class.</p>' +
        '<h1>Glossary<a class="headerlink" href="#glossary">¶</a></h1><dl class="glossary">' +
        '<dt id="term-class">class<a class="headerlink" href="#term-class">¶</a></dt>' +
        '<dd>A template for creating user-defined objects.</dd>' +
        '<dt id="term-class-variable">class variable<a class="headerlink" href="#term-class-variable">¶</a></dt>' +
        '<dd>A variable defined in a class and intended to be modified only at class level.</dd></dl></body>',
    });
    expect(ask(knowledge, 'What is a class variable?').text).toMatch(
      /^- class variable: A variable defined in a class/,
    );
    // A question that is no definition question is ranked as before.
    expect(ask(knowledge, 'Why is a mutable class variable a common mistake?').text).toMatch(
      /^A class variable is shared/,
    );
  });

  it('scores question words standing together above the same words apart', () => {
    const terms = new Set(termsOf('certificate chain'));
    expect(proximityOf('the certificate chain is broken', terms)).toBe(1);
    expect(proximityOf('a chain of trust ends at one certificate', terms)).toBeLessThan(0.5);
    expect(proximityOf('no such words', terms)).toBe(0);
  });

  it('puts a unit whose own heading holds the rarest word before one under a subheading', async () => {
    // Both units match the question's words alike (the command line in the body, "completion"
    // in the heading path); only the first one's innermost heading names what it is about.
    const knowledge = await knowledgeOf({
      format: 'markdown',
      name: 'editor.md',
      text: [
        '# Editor',
        '## Completion',
        'Press Tab on the command line and the word under the cursor is finished for you.',
        '### Context',
        'What is offered on the command line depends on the command before the word under the cursor.',
      ].join('\n\n'),
    });
    const question = 'How does completion work on the command line?';
    const searches = gather(knowledge.passages, [readingOf(question)], evidenceBudgets.expert, false);
    const [best, next] = rank(knowledge.passages, searches, question);
    expect(knowledge.passages.text(best.hit.id)).toMatch(/^Press Tab/);
    expect(knowledge.passages.section(next.hit.id).path.at(-1)).toBe('Context');
  });

  it('puts a unit with the rarest word of the question before units that lack it', async () => {
    const knowledge = await knowledgeOf({
      format: 'text',
      name: 'notes.txt',
      text: 'The request timeout is set per client and applies to every request of the client.\n\nThe ca option of a client makes a request trust a self-signed certificate.\n\nA request option may be set per request.\n',
    });
    const question = 'Which option trusts a certificate for a request?';
    const searches = gather(knowledge.passages, [readingOf(question)], evidenceBudgets.expert, false);
    const [best] = rank(knowledge.passages, searches, question);
    expect(knowledge.passages.text(best.hit.id)).toMatch(/ca option/);
    expect(best.hasRarest).toBe(true);
  });
});

describe('judge', () => {
  it('says answer when a unit covers the question and stands out, none when nothing does', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const level = (question: string) => {
      const searches = gather(knowledge.passages, [readingOf(question)], evidenceBudgets.expert, false);
      return judge(searches, rank(knowledge.passages, searches, question)).confidence;
    };
    const answered = level('How long may a request take before it is abandoned?');
    expect(answered.level).toBe('answer');
    expect(answered.score).toBeGreaterThan(0.5);
    expect(level('Which airline flies to Lisbon on Sundays?').level).toBe('none');
  });

  it("shows the closest passage when the question's rarest word is only in units that do not answer it (a paraphrase)", () => {
    // Two units cover two thirds of the question and neither leads; the rarest word ("supply")
    // is found only in a unit that covers little else. Numbers stand in for the rank stage's.
    const search = {
      reading: readingOf('How do I supply a function for request ids?'),
      query: [],
      idf: [],
      own: 3,
      counted: 3,
      ownWeight: 3,
      unknownWords: [],
      unknownSubject: false,
      unknownName: false,
      rarest: 0,
      hits: [],
    } as unknown as Parameters<typeof judge>[0][number];
    const unit = (id: number, coverage: number, hasRarest: boolean, rankValue: number) => ({
      hit: { id, score: 1, ownScore: 1, matched: [1, 2], matchedNearby: [], matchedHeading: [] },
      reading: 0,
      coverage,
      covered: coverage * 3,
      hasRarest,
      proximity: 0,
      fitsWanted: false,
      rank: rankValue,
    });
    const paraphrased = judge(
      [search],
      [unit(1, 0.66, false, 1.3), unit(2, 0.66, false, 1.29), unit(3, 0.3, true, 0.6)],
    );
    expect(paraphrased.confidence.level).toBe('nearest');
    // Where a unit holding the word covers the question too, one without it is not even closest.
    const held = judge(
      [search],
      [unit(1, 0.66, false, 1.3), unit(2, 0.66, false, 1.29), unit(3, 0.6, true, 1.0)],
    );
    expect(held.confidence.level).toBe('none');
  });
});

describe('judge: names the documents never use', () => {
  it('does not answer a question about C# from a text about C', async () => {
    const knowledge = await knowledgeOf({
      format: 'markdown',
      name: 'c.md',
      text: '# Functions in C\n\nA function pointer in C holds the address of a function, so a C program can pass a function to another function as a delegate does.\n',
    });
    expect(ask(knowledge, 'What is a function pointer in C?').confidence.level).toBe('answer');
    const reply = ask(knowledge, 'What is a C# delegate?');
    expect(reply.confidence.level).toBe('none');
    expect(reply.thought).toMatch(/never taught: c#/);
  });
});

describe('extract', () => {
  it("carries the unit's name from its heading into the reply, answer first", async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const reply = ask(knowledge, 'Which option sets how many times a failed request is tried again?');
    expect(reply.confidence.level).toBe('answer');
    expect(reply.text).toMatch(/^`retries`: How many times a failed request is tried again/);
  });

  it('brings a problem with the fix that follows it', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const reply = ask(knowledge, 'Why does a request to a server with a self-signed certificate fail?');
    expect(reply.text).toMatch(/certificate chain/);
    expect(reply.text).toMatch(/Set the `ca` option/);
  });

  it('brings a short paragraph with the first sentence of the paragraph it sets up', async () => {
    const text = [
      '# ledger',
      '',
      '## Recovering lost entries',
      '',
      'Say you purge a journal by mistake and it held the only copy of some entries.',
      '',
      'Fortunately ledger keeps a shadow log of every entry it ever wrote. Run ledger shadow to list it.',
      '',
    ].join('\n');
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'ledger.md', text });
    const reply = ask(
      knowledge,
      'I purged a journal by mistake and it held the only copy of some entries. How do I get them back?',
    );
    expect(reply.text).toMatch(/Say you purge a journal/);
    expect(reply.text).toMatch(/shadow log/);
  });

  it('brings a lead-in ending in ":" with the code it announces, whole', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const reply = ask(knowledge, 'How do I bypass the proxy for a host?');
    expect(reply.text).toContain('```bash\nexport NO_PROXY=internal.example.com\n```');
  });

  it('brings a paragraph that breaks off at a comma with the code block that completes it', async () => {
    const text = [
      '# bundler',
      '',
      '## Undoing a release',
      '',
      'A release that was tagged by mistake stays on the server until it is withdrawn. Or, if you have already published the release to the registry and want it withdrawn,',
      '',
      '```sh',
      'bundler withdraw --last',
      '```',
      '',
    ].join('\n');
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'bundler.md', text });
    const reply = ask(knowledge, 'How do I withdraw a release I already published to the registry?');
    expect(reply.text).toContain('```sh\nbundler withdraw --last\n```');
  });

  it('shows, in a closest-passage reply, the line that names the likeliest answer without stating it', async () => {
    const knowledge = await knowledgeOf({
      format: 'text',
      name: 'chronicle.txt',
      text: [
        'In the autumn the rains came early upon the valley of Orle.',
        'At the feast the elders were wont to free one captive, whom the people chose.',
        'And they had then a notable captive, called Orrin.',
        'And the shepherds of Hesk drove their flocks up into the hills before the snow.',
        'And Orrin went up to the hills of Hesk after the feast.',
      ].join('\n'),
    });
    const question = 'Which captive did the people choose to be freed?';
    const searches = gather(knowledge.passages, [readingOf(question)], evidenceBudgets.expert, false);
    const ranked = rank(knowledge.passages, searches, question);
    const hedged = extract(knowledge.model, knowledge.passages, searches[0], ranked, ranked[0], {
      budget: evidenceBudgets.expert,
      hedged: true,
    });
    expect(hedged.text).toMatch(
      /whom the people chose\. And they had then a notable captive, called Orrin\./,
    );
    expect(hedged.text).not.toMatch(/^Orrin/);
    expect(hedged.answer).toBeNull();
  });

  it('shows, in a closest-passage reply, the best unit of another section as a second place to look', async () => {
    const knowledge = await knowledgeOf({
      format: 'markdown',
      name: 'tool.md',
      text: [
        '# tool',
        '',
        '## Snapshots',
        '',
        'Old snapshots pile up in the cache folder of the tool over the months.',
        '',
        '## Pruning',
        '',
        'The prune command clears old snapshots that no branch of the tool refers to.',
        '',
      ].join('\n'),
    });
    const question = 'How do I clear old snapshots from the cache?';
    const searches = gather(knowledge.passages, [readingOf(question)], evidenceBudgets.expert, false);
    const ranked = rank(knowledge.passages, searches, question);
    const sections = (sources: { section?: string }[]) => sources.map((source) => source.section);
    const hedged = extract(knowledge.model, knowledge.passages, searches[0], ranked, ranked[0], {
      budget: evidenceBudgets.expert,
      hedged: true,
    });
    expect(sections(hedged.sources)).toEqual(['tool > Pruning', 'tool > Snapshots']);
    expect(hedged.text).toMatch(/pile up in the cache folder/);
    // Stated as the answer, a unit without the question's rarest word is not cited beside it.
    const stated = extract(knowledge.model, knowledge.passages, searches[0], ranked, ranked[0], {
      budget: evidenceBudgets.expert,
    });
    expect(sections(stated.sources)).toEqual(['tool > Pruning']);
  });

  it('opens the answer to a yes/no question with the "Yes." or "No." its unit opens with', async () => {
    const knowledge = await knowledgeOf({
      format: 'text',
      name: 'faq.txt',
      text: [
        '1. Is the library thread-safe?',
        '',
        '    Yes. However any allocation routines that the library calls from several',
        '    threads must also be thread-safe.',
        '',
        '2. Which threads does the library start?',
        '',
        '    None. The library starts no threads of its own; every call runs in the thread that makes it.',
        '',
      ].join('\n'),
    });
    const polar = ask(knowledge, 'Is it safe to call the library from several threads at once?');
    expect(polar.text).toMatch(/^(?:Closest match \(may not answer\): )?Yes\. However/);
    expect(shapeOf('Can I call it from two threads?').polar).toBe(true);
    expect(shapeOf('Which threads does the library start?').polar).toBeUndefined();
  });

  it('leaves out a later snippet that does not fit maxTokens, never half of it', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const question = 'How long may a request take?';
    const searches = gather(knowledge.passages, [readingOf(question)], evidenceBudgets.apex, false);
    const ranked = rank(knowledge.passages, searches, question);
    const short = extract(knowledge.model, knowledge.passages, searches[0], ranked, ranked[0], {
      budget: evidenceBudgets.apex,
      maxTokens: 5,
    });
    expect(short.sources).toHaveLength(1);
  });

  it('brings what a list item announces with a colon along with it', async () => {
    const knowledge = await knowledgeOf({
      format: 'text',
      name: 'faq.txt',
      text: [
        'Package tools',
        '=============',
        '',
        '      * To list all packages for which newer versions are available,',
        '        run:',
        '',
        '        pkgtool list --upgradable',
        '',
        '      * To remove a package and its settings, run:',
        '',
        '        pkgtool purge NAME',
        '',
      ].join('\n'),
    });
    expect(ask(knowledge, 'How do I list the packages that have newer versions available?').text).toContain(
      'pkgtool list --upgradable',
    );
  });

  it("brings the name a unit gives for 'which option', and the command a paragraph announces for 'how do I'", async () => {
    const knowledge = await knowledgeOf({
      format: 'markdown',
      name: 'editor.md',
      text: [
        '# Editor',
        '## Searching',
        "Display the match for a search pattern while you are still typing it. See 'livesearch'.",
        'Searching wraps around the end of the file.',
        '## Quitting',
        'Sometimes you make a sequence of changes and realize you were better off before. Not to worry; the editor has a quit-and-throw-away command. It is:',
        '```\n:quit!\n```',
        'The window closes after it.',
      ].join('\n\n'),
    });
    expect(
      ask(knowledge, 'Which option shows the match while I am still typing the pattern?').text,
    ).toContain("'livesearch'");
    expect(ask(knowledge, 'How do I quit and throw away my changes?').text).toContain(':quit!');
  });

  it('puts a short answer the evidence names first, for a who-question', async () => {
    const knowledge = await knowledgeOf({ format: 'text', name: 'family.txt', text: FAMILY });
    expect(ask(knowledge, "Who was Ondine's mother in law?").text).toMatch(/^Marla Quist\./);
  });
});

describe('compose', () => {
  it('says plainly that the documents do not cover it, with questions they answer and no sources', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const reply = ask(knowledge, 'Which airline flies to Lisbon on Sundays?');
    expect(reply.confidence.level).toBe('none');
    expect(reply.sources).toEqual([]);
    expect(reply.text).not.toMatch(/api\/train|npm run/);
  });

  it("says it does not know when a word the question is about is no English word and was never taught (a tool's name)", async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    // "timeout" and "request" are taught; "zorblax" is a name nobody taught.
    expect(ask(knowledge, 'What is the default request timeout in zorblax?').confidence.level).toBe('none');
    expect(ask(knowledge, 'What is the default request timeout?').confidence.level).toBe('answer');
  });

  it('asks no more of the other words for a never-taught verb (a paraphrase) than for none, but does for a never-taught noun', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'tracelog.md', text: TRACELOG });
    // "turns", "picked" and "wanted" are the asker's verbs for what the entry says ("Enables"):
    // the taught words cover 57% of the question, enough for an answer.
    const verbs = ask(knowledge, 'Which variable turns on tracing of the channels I picked and wanted?');
    expect(verbs.confidence.level).toBe('answer');
    expect(verbs.text).toContain('TRACE');
    // The same share with never-taught nouns: what the question is about may be missing.
    const nouns = ask(
      knowledge,
      'Which variable turns on tracing of the channels for glaciers and earthquakes?',
    );
    expect(nouns.confidence.level).toBe('none');
  });

  it('does not require an adverb of stance ("anyway") as the rarest word of the question', async () => {
    const text = [
      '# twig',
      '',
      '## Branches',
      '',
      '- `-d`: Delete a branch that is merged into its upstream.',
      '- `-D`: Delete a branch even when it is not merged.',
      '',
      '## History',
      '',
      'The project began as a weekend hack and was kept anyway.',
      '',
    ].join('\n');
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'twig.md', text });
    const reply = ask(knowledge, 'How do I delete a branch that is not merged anyway?');
    // With "anyway" as the rarest word required, `-d` came first, as the closest passage.
    expect(reply.confidence.level).not.toBe('none');
    expect(reply.text).toContain('-D');
  });

  it('says it does not know when no passage holds the whole of a proper name the question gives, only its parts', async () => {
    const knowledge = await knowledgeOf({ format: 'text', name: 'family.txt', text: FAMILY });
    // "Veldhaven" and "lighthouse" are taught, but nothing names a "Veldhaven Lighthouse".
    expect(ask(knowledge, 'Who kept the Veldhaven Lighthouse?').confidence.level).toBe('none');
    expect(ask(knowledge, 'Who kept the lighthouse of Veldhaven?').confidence.level).toBe('answer');
  });

  it('reads proper names of several words from the capitals of a question, not from its first word or title case', () => {
    expect(namePhrases('When were the Dead Sea Scrolls discovered?')).toEqual(['dead sea scrolls']);
    expect(namePhrases('Where is the Church of the Holy Sepulchre?')).toEqual([
      'church of the holy sepulchre',
    ]);
    // Two names joined by "and", a possessive, acronyms and a title-case question are no one name.
    expect(namePhrases('Who was the mother of Moses and Aaron?')).toEqual([]);
    expect(namePhrases("How do I write a handler with Rust's Actix Web?")).toEqual(['actix web']);
    expect(namePhrases('What kind of index is a table declared WITHOUT ROWID stored as?')).toEqual([]);
    expect(namePhrases('How Do I Use The Shell?')).toEqual([]);
  });

  it('tells the owner of an empty install how to teach it', async () => {
    const knowledge = await knowledgeOf();
    const reply = ask(knowledge, 'What is the default timeout?');
    expect(reply.kind).toBe('empty');
    expect(reply.text).toContain('POST /api/train');
  });
});

describe('assist (an external model, grounded in the same evidence)', () => {
  let standin: OpenAIStandin;
  beforeAll(async () => {
    standin = await startOpenAIStandin();
  });
  afterAll(() => standin.close());

  /** A provider on the stand-in, which answers as told and has forgotten earlier requests. */
  function helperModel(behaviour: 'ok' | 'server-error' = 'ok') {
    standin.setBehaviour(behaviour);
    standin.requests.length = 0;
    return createProvider({ baseUrl: standin.baseUrl, model: 'helper', timeoutMs: 2000 });
  }

  /** Asks the assist stage about a local reply, with the defaults of a chat message. */
  function assistWith(
    local: Parameters<typeof assist>[0],
    message: string,
    mode: 'instant' | 'expert' | 'apex',
    behaviour?: 'ok' | 'server-error',
  ) {
    return assist(local, { model: helperModel(behaviour), mode, message, history: [], maxTokens: 80 });
  }

  function systemOf(request: RecordedRequest): string {
    const system = request.body.messages?.find((message) => message.role === 'system');
    return typeof system?.content === 'string' ? system.content : '';
  }

  it('hands the model the passages the local stages chose, numbered, with the local reply as a draft', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const local = ask(knowledge, 'How many times is a failed request tried again?');
    expect(local.confidence.level).toBe('answer');
    const assisted = await assistWith(local, 'How many times is a failed request tried again?', 'apex');
    expect(assisted.text).toMatch(/^echo:How many times/);
    expect(assisted.note).toBe('answered by helper');
    expect(assisted.sources).toEqual(local.context);
    const system = systemOf(standin.requests[0]);
    expect(system).toMatch(/\[1\] \(client\.md › [^)]*retries/);
    expect(system).toContain(`<local-draft>${local.text.trim()}</local-draft>`);
    expect(system).not.toMatch(/found no passage/);
  });

  it('tells the model when the search found nothing that answers, so a weak match does not become an answer', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const local = ask(knowledge, 'How do I compile the kernel modules?');
    expect(local.confidence.level).toBe('none');
    await assistWith(local, 'How do I compile the kernel modules?', 'apex');
    expect(systemOf(standin.requests[0])).toMatch(/found no passage that answers/);
  });

  it('keeps the local reply, with the reason, when the model fails', async () => {
    const knowledge = await knowledgeOf({ format: 'markdown', name: 'client.md', text: CLIENT });
    const local = ask(knowledge, 'What is the default timeout?');
    const assisted = await assistWith(local, 'What is the default timeout?', 'expert', 'server-error');
    expect(assisted.text).toBeUndefined();
    expect(assisted.note).toMatch(/^external model unavailable \(/);
    standin.setBehaviour('ok');
  });

  it('grounds the model in an article instead of the trained text when the evidence is one (www)', async () => {
    const evidence = replyFromArticle(
      {
        kind: 'found',
        title: 'Lighthouse',
        url: 'https://en.wikipedia.org/wiki/Lighthouse',
        extract: 'A lighthouse is a tower that emits light to guide ships.',
      },
      'What is a lighthouse?',
    );
    expect(evidence.confidence.level).toBe('answer');
    expect(evidence.text).toContain('Source: Lighthouse — https://en.wikipedia.org/wiki/Lighthouse');
    await assistWith(evidence, 'What is a lighthouse?', 'instant');
    expect(systemOf(standin.requests[0])).toContain('<extract>\nA lighthouse is a tower');
    const none = replyFromArticle({ kind: 'no_results', query: 'zzz' }, 'zzz?');
    expect(none.confidence.level).toBe('none');
    const skipped = await assistWith(none, 'zzz?', 'instant');
    expect(skipped.text).toBeUndefined();
  });
});
