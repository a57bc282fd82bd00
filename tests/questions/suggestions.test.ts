import { beforeAll, describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { type Endpoint, endpoint } from '../../lib/http/index.js';
import { adminQuestionsHandlers } from '../../lib/questions/index.js';
import type { Services } from '../../lib/services/index.js';
import { suggestionsHandlers } from '../../lib/suggestions/handlers.js';
import { questionFromHeading, unknownReplyText } from '../../lib/suggestions/index.js';
import { embeddedServices, postJson } from '../support/services.js';

const GUIDE = `# Harbour museum

## Overview

The harbour museum shows ships, maps and the tools of the harbour's sailors.

## Tip

Come early.

## Opening hours

The harbour museum opens at nine in the morning and closes at six in the evening every day.

## Buying tickets online

Tickets are bought online on the museum's website; a ticket costs five euros for adults and is free for children.

## Reset your password

To reset your museum account password, open the account page and choose "Forgot password"; a link comes by e-mail.`;

describe('questions from headings', () => {
  it.each([
    ['Opening hours', 'What are the opening hours?'],
    ['Reset your password', 'How do I reset my password?'],
    ['Installing the CLI', 'How do I install the CLI?'],
    ['How to reset a password', 'How do I reset a password?'],
    ['Getting started', 'How do I get started?'],
    ['Buying tickets online', 'How do I buy tickets online?'],
    ['Can I pay by card', 'Can I pay by card?'],
    ['What is a session?', 'What is a session?'],
    // Title case is typography: asked in lower case, acronyms and words with inner capitals kept,
    // the head noun (before "of") says singular or plural.
    ['5.Extended Result Code List', 'What is the extended result code list?'],
    ['1.7. Covering Indexes', 'What are the covering indexes?'],
    ['List Of PRAGMAs', 'What is the list of PRAGMAs?'],
    ['Use of WAL Without Shared-Memory', 'What is the use of WAL without shared-memory?'],
    ['Do-It-Yourself Builds', 'What are the do-it-yourself builds?'],
    // A word naming the kind of text is not the topic.
    ['Introduction to Foreign Key Constraints', 'What are the foreign key constraints?'],
    ['Object storage explained', 'What is the object storage?'],
    ['Foreign key constraints in a nutshell', 'What are the foreign key constraints?'],
    ['How is a row stored', 'How is a row stored?'],
    // A title and its subtitle: the title names the topic.
    ['Basic bisect commands: start, bad, good', 'What are the basic bisect commands?'],
    // Set in capitals, as manual pages set their section titles.
    ['DIFF FORMATTING', 'What is the diff formatting?'],
    ['SPLITTING COMMITS', 'How do I split commits?'],
    // "About X" names its topic after "about".
    ['About this service', 'What can you tell me about this service?'],
    ['About your account', 'What can you tell me about my account?'],
    // An embedded question keeps a statement's order; asked, the auxiliary comes first, or "does".
    ['How replies are made', 'How are replies made?'],
    ['Where data is kept', 'Where is data kept?'],
    ['What the service cannot do', "What can't the service do?"],
    ['What the parser does', 'What does the parser do?'],
    ['How it works', 'How does it work?'],
    ['What happens next', 'What happens next?'],
    // A verb whose object is an embedded question is an action.
    ['See what visitors asked', 'How do I see what visitors asked?'],
  ])('phrases "%s" as "%s"', (heading, question) => {
    expect(questionFromHeading(heading)).toBe(question);
  });

  // A number among the words is not a section number: no question rather than "What is the and Truecolor ...?".
  it.each([
    'Tip',
    'Overview',
    'Tickets',
    'Table of contents',
    'Using `npm`',
    '',
    'x'.repeat(80),
    '256 and Truecolor color support',
    // A heading that states a fact is not a topic to ask about.
    'No Separate BOOLEAN Datatype',
    'AUTOINCREMENT Does Not Work The Same As In PostgreSQL',
    // An exclamation urges; it names no topic.
    "Let's start!",
    // "Explained" names the kind of text; one word is left, and one word says too little.
    'Git explained',
  ])('makes no question of "%s"', (heading) => {
    expect(questionFromHeading(heading)).toBeUndefined();
  });
});

describe("the don't-know reply", () => {
  it('fills {suggestions} with two or three quoted questions, or with nothing', () => {
    const reply = unknownReplyText(['What are the opening hours?', 'How do I reset my password?']);
    expect(reply).toBe(
      'Sorry, I can\'t answer that: the documents I have don\'t cover it. You could ask: "What are the opening hours?" or "How do I reset my password?"',
    );
    expect(unknownReplyText([], 'Not in our docs. {suggestions}')).toBe('Not in our docs.');
    expect(unknownReplyText(['A?', 'B?', 'C?', 'D?'], '{suggestions}')).toBe(
      'You could ask: "A?", "B?" or "C?"',
    );
  });
});

async function museum(env: Record<string, string> = {}): Promise<Services> {
  const services = embeddedServices({
    OWNER_EMAIL: 'owner@example.com',
    ADMIN_TOKEN: 'admin-token-0123456789abcdef',
    ...env,
  });
  await services.model.train({ text: GUIDE, format: 'markdown', name: 'museum.md' });
  return services;
}

describe('GET /api/suggestions', () => {
  let api: Endpoint;
  beforeAll(async () => {
    api = endpoint(suggestionsHandlers(() => services));
    services = await museum();
  });
  let services: Services;

  it('answers up to five questions the documents answer, from real headings, cacheable', async () => {
    const response = await api.fetch(new Request('http://127.0.0.1/api/suggestions'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const { questions } = await response.json();
    expect(questions.length).toBeGreaterThanOrEqual(2);
    expect(questions.length).toBeLessThanOrEqual(5);
    for (const question of questions) expect(question).toMatch(/^(What|How|Can|Why)\b.*\?$/);
    expect(questions).toContain('What are the opening hours?');
    expect(JSON.stringify(questions)).not.toMatch(/Tip|Overview|Tell me about/);
  });

  it('answers an empty list when nothing was taught, and 405 to a POST', async () => {
    const empty = embeddedServices();
    const fresh = endpoint(suggestionsHandlers(() => empty));
    expect(await (await fresh.fetch(new Request('http://127.0.0.1/api/suggestions'))).json()).toEqual({
      questions: [],
    });
    const post = await api.fetch(postJson('http://127.0.0.1/api/suggestions', {}));
    expect(post.status).toBe(405);
  });
});

describe('what a visitor reads when the documents do not answer', () => {
  it('addresses the visitor, offers questions from headings, and never names an API path', async () => {
    const services = await museum();
    const chat = endpoint(chatHandlers(() => services));
    for (const message of ['What is the capital of Brazil?', 'How do I configure Kubernetes ingress?']) {
      const body = await (await chat.fetch(postJson('http://127.0.0.1/api/chat', { message }))).json();
      expect(body.response).toMatch(
        /^Sorry, I can't answer that: the documents I have don't cover it\. You could ask: "/,
      );
      expect(body.response).not.toMatch(/\/api\/|npm run|Tell me about|POST /);
      expect(body.response).toContain('"What are the opening hours?"');
    }
  });

  it('offers first the questions about the sections nearest to what was asked', async () => {
    const services = await museum();
    const chat = endpoint(chatHandlers(() => services));
    const body = await (
      await chat.fetch(
        postJson('http://127.0.0.1/api/chat', { message: 'Can I buy Eurostar tickets at the museum?' }),
      )
    ).json();
    expect(body.confidence.level).toBe('none');
    // The ticket section is nearest: its question comes before the largest sections' ones.
    expect(body.response).toMatch(/You could ask: "How do I buy tickets online\?"/);
  });

  it('uses UNKNOWN_REPLY with its {suggestions}', async () => {
    const services = await museum({
      UNKNOWN_REPLY: 'Our guide does not say. Try one of these. {suggestions}',
    });
    const chat = endpoint(chatHandlers(() => services));
    const body = await (
      await chat.fetch(postJson('http://127.0.0.1/api/chat', { message: 'Who won the World Cup in 2018?' }))
    ).json();
    expect(body.response).toMatch(/^Our guide does not say\. Try one of these\. You could ask: "/);
    const questions = endpoint(adminQuestionsHandlers(() => services));
    const list = await (
      await questions.fetch(
        new Request('http://127.0.0.1/api/admin/questions?kind=unanswered', {
          headers: {
            'X-Owner-Email': 'owner@example.com',
            Authorization: 'Bearer admin-token-0123456789abcdef',
          },
        }),
      )
    ).json();
    expect(list.questions.map((entry: { question: string }) => entry.question)).toEqual([
      'Who won the World Cup in 2018?',
    ]);
  });
});

/** The questions a don't-know reply offers, as its visitor reads them. */
function offered(reply: string): string[] {
  return [...reply.matchAll(/"([^"]+\?)"/g)].map((match) => match[1]!);
}

const ISLAND = [
  'The lighthouse keeper Martha lived on the island for thirty years, and every evening the keeper Martha climbed the tower to light the lamp.',
  'The ferry from Kellan harbour came twice a week with letters and bread, and the people of Kellan called it the grey boat.',
  'In the great storm the keeper Martha saved eleven sailors from a wrecked trawler near Kellan.',
  'After the storm the town of Kellan rebuilt its harbour, and the ferry now comes every day.',
].join('\n\n');

describe("GET /api/suggestions and the don't-know reply offer the same questions", () => {
  async function both(services: Services) {
    const suggestions = endpoint(suggestionsHandlers(() => services));
    const chat = endpoint(chatHandlers(() => services));
    const { questions } = await (
      await suggestions.fetch(new Request('http://127.0.0.1/api/suggestions'))
    ).json();
    const body = await (
      await chat.fetch(postJson('http://127.0.0.1/api/chat', { message: 'What is the capital of Brazil?' }))
    ).json();
    expect(body.confidence.level).toBe('none');
    return { questions: questions as string[], reply: body.response as string, chat };
  }

  it('for documents with headings: the first three of the list, never a one-word heading', async () => {
    const { questions, reply } = await both(await museum());
    expect(questions.length).toBeGreaterThanOrEqual(2);
    expect(offered(reply)).toEqual(questions.slice(0, 3));
    expect(`${reply} ${questions.join(' ')}`).not.toMatch(/\b(?:Tip|Overview)\b/);
  });

  it('for text without headings: questions about the names it mentions most, each one answered', async () => {
    const services = embeddedServices();
    await services.model.train({ text: ISLAND, format: 'text', name: 'island.txt' });
    const { questions, reply, chat } = await both(services);
    expect(questions).toEqual(
      expect.arrayContaining(['What can you tell me about Martha?', 'What can you tell me about Kellan?']),
    );
    expect(offered(reply)).toEqual(questions.slice(0, 3));
    for (const message of questions) {
      const answer = await (await chat.fetch(postJson('http://127.0.0.1/api/chat', { message }))).json();
      expect(answer.confidence.level, message).toBe('answer');
    }
  });

  it('asks about a name of several words as the text mostly writes it', async () => {
    const services = embeddedServices();
    const text = [
      'The station is run by Harbour Control, and every ship calls Harbour Control before it docks.',
      'The pilots of Harbour Control guide the big ships in, and the small boats follow them.',
      'Ships that arrive at night wait until Harbour Control opens the gate at dawn.',
      'A ship that finds the gate shut reads the Retry-After sign on the pier.',
      'The sign says when the Retry-After time ends, and then the ship may call again.',
    ].join('\n');
    await services.model.train({ text, format: 'text', name: 'harbour.txt' });
    const { questions } = await both(services);
    expect(questions).toContain('What can you tell me about Harbour Control?');
    expect(questions).not.toContain('What can you tell me about Harbour?');
    // The first part of a compound with a hyphen is no name.
    expect(questions).not.toContain('What can you tell me about Retry?');
  });

  it('offers nothing unchecked: headings of one word only give no question in either', async () => {
    const services = embeddedServices();
    await services.model.train({
      text: '# Overview\n\nThe app syncs notes.\n\n## Tip\n\nPress save often.\n\n## Setup\n\nRun the installer.\n',
      format: 'markdown',
      name: 'app.md',
    });
    const { questions, reply } = await both(services);
    expect(questions).toEqual([]);
    expect(offered(reply)).toEqual([]);
    expect(reply).not.toMatch(/Tip|Overview|Setup|You could ask/);
  });
});

describe('title-case headings', () => {
  // The model's casing marks "Interactive" and "Debian" alike as names when the headings set them
  // in title case: a word of the language is asked in lower case, a name keeps its capital.
  const isName = (word: string) => ['interactive', 'debian', 'shell'].includes(word);
  it.each([
    ['An Interactive Shell', 'What is an interactive shell?'],
    ['Installing Debian Packages', 'How do I install Debian packages?'],
  ])('phrases "%s" as "%s"', (heading, question) => {
    expect(questionFromHeading(heading, isName)).toBe(question);
  });
});
