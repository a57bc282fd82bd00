import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { parseConfig } from '../../lib/config/index.js';
import { endpoint } from '../../lib/http/index.js';
import { starterTextFromConfig } from '../../lib/starter/index.js';
import { embeddedServices, postJson } from '../support/services.js';

const SOCIAL: [string, RegExp][] = [
  ['hello', /\b(hello|hi|welcome)\b/i],
  ['hi there!', /\b(hello|hi|welcome)\b/i],
  ['good morning', /\b(hello|hi|morning|welcome)\b/i],
  ['nice to meet you', /\bnice to meet you\b/i],
  ['thanks!', /\b(welcome|glad)\b/i],
  ['thank you so much', /\b(welcome|glad)\b/i],
  ['bye', /\b(bye|goodbye|take care)\b/i],
  ['see you later', /\b(bye|goodbye|take care)\b/i],
  ['how are you?', /\b(well|fine|good)\b/i],
  ['who are you?', /\b(chat|assistant|service)\b/i],
  ["what's your name?", /\bname\b/i],
  ['are you a bot?', /\bbot\b/i],
  ['ok', /\b(glad|great)\b/i],
  ['cool', /\b(glad|great)\b/i],
  ['sorry', /\bno problem\b/i],
  ["that's wrong", /\b(sorry|teach)\b/i],
  ["I'm confused", /\b(sorry|ask)\b/i],
  ['can you help me?', /\b(help|ask)\b/i],
  ['tell me a joke', /\bjoke|one\b/i],
  ['what can you do?', /\b(answer|taught)\b/i],
];

async function chat(text?: string) {
  const services = embeddedServices({}, { random: () => 0.5 });
  if (text) await services.model.train(text);
  const api = endpoint(chatHandlers(() => services));
  return async (message: string) => {
    const response = await api.fetch(postJson('http://localhost/api/chat', { message, raw: true }));
    expect(response.status).toBe(200);
    return response.json();
  };
}

const BOOK = [
  'The keeper of the lighthouse was Tobin Quist.',
  'Tobin Quist came from the town of Veldhaven.',
  'Every winter the lighthouse burned whale oil.',
].join('\n');

describe('social turns', () => {
  for (const [label, text] of [
    ['on a fresh install (the starter text)', starterTextFromConfig(parseConfig({ STARTER_TEXT: 'on' }))],
    ['after training a text', BOOK],
  ] as const) {
    it(`answers the things people type to a bot as a person would, ${label}`, async () => {
      const ask = await chat(text);
      for (const [message, fitting] of SOCIAL) {
        const body = await ask(message);
        expect(body.response, message).toMatch(fitting);
        expect(body.response, message).not.toMatch(/I don't know about/);
        expect(body.thought, message).toMatch(/^small talk/);
        expect(body.sources, message).toEqual([]);
      }
    });
  }

  it('says what it was taught when asked what it knows', async () => {
    const services = embeddedServices();
    await services.model.train({
      format: 'markdown',
      name: 'widgets.md',
      text: '# Widgets\n\n## Charging the battery\n\nCharge the battery for an hour.\n',
    });
    const api = endpoint(chatHandlers(() => services));
    const body = await (
      await api.fetch(postJson('http://localhost/api/chat', { message: 'What do you know about?' }))
    ).json();
    expect(body.response).toContain('Widgets');
    expect(body.response).not.toContain('widgets.md');
    expect(body.response).toContain('"How do I charge the battery?"');
  });

  it("names what it was taught by the documents' titles, the largest first, each title once", async () => {
    const services = embeddedServices();
    const paragraphs = (n: number) =>
      Array.from({ length: n }, (_, i) => `Paragraph ${i} of the text.`).join('\n\n');
    await services.model.train({
      format: 'markdown',
      name: 'docs/a-small.md',
      text: `# 2. Small Guide\n\n${paragraphs(1)}\n`,
    });
    await services.model.train({
      format: 'markdown',
      name: 'docs/big.md',
      text: `# Big Reference\n\n${paragraphs(6)}\n`,
    });
    await services.model.train({ format: 'text', name: 'notes/release-notes.txt', text: paragraphs(3) });
    await services.model.train({
      format: 'markdown',
      name: 'docs/again.md',
      text: `# Big Reference\n\n${paragraphs(2)}\n`,
    });
    const api = endpoint(chatHandlers(() => services));
    const body = await (
      await api.fetch(postJson('http://localhost/api/chat', { message: 'hello', raw: true }))
    ).json();
    expect(body.response).toContain('Ask me anything about Big Reference, release notes and Small Guide.');
    // Small talk inside a conversation about the documents holds nothing of them.
    for (const message of ['tell me a joke', 'who are you?', 'thanks!', 'bye']) {
      const reply = await (
        await api.fetch(postJson('http://localhost/api/chat', { message, raw: true }))
      ).json();
      expect(reply.response, message).not.toMatch(/Big Reference|Small Guide|release notes|Paragraph/);
    }
  });

  it('names a document by its file when its first heading is a sentence, not a name', async () => {
    const services = embeddedServices();
    await services.model.train({
      format: 'markdown',
      name: 'docs/semver.md',
      text: '# semver(1) -- The semantic versioner for npm\n\nParagraph of the text.\n',
    });
    const api = endpoint(chatHandlers(() => services));
    const body = await (
      await api.fetch(postJson('http://localhost/api/chat', { message: 'hello', raw: true }))
    ).json();
    expect(body.response).toContain('Ask me anything about semver.');
  });

  it('answers an unanswerable message honestly, with questions it can answer, not with made-up text', async () => {
    const ask = await chat(BOOK);
    const body = await ask('What is the capital of France?');
    expect(body.response).toMatch(/^Sorry, I can't answer that/);
    expect(body.response).toMatch(/You could ask: "What can you tell me about (Tobin|Quist|Veldhaven)\?"/);
    const story = await ask('tell me a story about the lighthouse');
    expect(story.thought).toMatch(/^generated: made-up text/);
  });
});

describe('trained dialogue', () => {
  it('answers a statement close to a trained one with its trained reply', async () => {
    const services = embeddedServices();
    await services.model.train(BOOK);
    await services.model.train({
      format: 'dialogue',
      text: 'User: When are you open?\nAssistant: We are open from nine to five, Monday to Friday.\n\nQ: Do you ship abroad?\nA: Yes, to every country in the European Union.\n',
    });
    const api = endpoint(chatHandlers(() => services));
    const ask = async (message: string) =>
      (await api.fetch(postJson('http://localhost/api/chat', { message, raw: true }))).json();
    const open = await ask('when are you open');
    expect(open.response).toBe('We are open from nine to five, Monday to Friday.');
    expect(open.thought).toMatch(/small talk \(trained/);
    expect((await ask('Do you ship abroad??')).response).toMatch(/European Union/);
    // Far from every trained statement: retrieval answers, not the dialogue.
    expect((await ask('Who was the keeper of the lighthouse?')).response).toMatch(/Tobin/);
  });
});
