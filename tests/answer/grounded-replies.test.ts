import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { createModel } from '../../lib/lm/index.js';
import { PassageIndex } from '../../lib/retrieval/index.js';
import { createEmbeddedStore } from '../../lib/store/index.js';
import { createModelKeeper } from '../../lib/training/index.js';
import { embeddedServices, postJson } from '../support/services.js';

const URL = 'http://localhost/api/chat';

/** A product FAQ written as hard-wrapped prose, as a user would train it. */
const FAQ = [
  'Acme Widgets ship from our warehouse in Rotterdam. Every order placed before noon',
  'leaves the warehouse on the same day, and delivery inside the European Union takes',
  'two to four working days.',
  '',
  'Returns are free within thirty days of delivery. To return a widget, print the label',
  'from your account page and drop the parcel at any post office.',
  '',
  'The Acme Widget Pro runs for eleven hours on one charge of its battery. Charging the',
  'battery fully takes ninety minutes with the supplied cable.',
].join('\n');

async function faqChat() {
  const services = embeddedServices({}, { random: () => 0.5 });
  await services.model.train(FAQ);
  return { services, api: endpoint(chatHandlers(() => services)) };
}

async function ask(api: ReturnType<typeof endpoint>, message: string, extra: Record<string, unknown> = {}) {
  const response = await api.fetch(postJson(URL, { message, modelMode: 'expert', raw: true, ...extra }));
  expect(response.status).toBe(200);
  return response.json();
}

describe('grounded replies', () => {
  it('answers from the passage that holds the answer and cites it with chunk and line', async () => {
    const { api } = await faqChat();
    const body = await ask(api, 'How long does the battery of the Widget Pro last?');
    expect(body.response).toMatch(/eleven hours/);
    expect(body.response).toMatch(/\[1\]/);
    expect(body.sources[0]).toMatchObject({ ref: { chunk: 1, line: 8 } });
    expect(body.sources[0].text).toContain('eleven hours on one charge');
    expect(body.sources[0].score).toBeGreaterThan(0);
    expect(body.thought).toMatch(/searched: .*battery/);
  });

  it('finds the answer when the sentence is hard-wrapped across lines', async () => {
    const { api } = await faqChat();
    const body = await ask(api, 'How many days does delivery inside the European Union take?');
    expect(body.response).toContain('delivery inside the European Union takes two to four working days');
    expect(body.sources[0].ref).toEqual({ chunk: 1, line: 1 });
  });

  it('says plainly that it does not know, with no sources, when nothing taught answers', async () => {
    const { api } = await faqChat();
    const body = await ask(api, 'What is the capital of France?');
    expect(body.response).toMatch(/^Sorry, I can't answer that: the documents I have don't cover it\./);
    expect(body.response).not.toContain('/api/');
    expect(body.thought).toMatch(/never taught: capital, france/);
    expect(body.sources).toEqual([]);
    expect(body.confidence.level).toBe('none');
    expect(body.thought).toMatch(/confidence none/);
  });

  it('answers a follow-up about the previous answer from the passage it quoted', async () => {
    const { api } = await faqChat();
    const first = await ask(api, 'How do I return a widget?', { sessionId: 'follow' });
    expect(first.response).toMatch(/print the label/);
    const second = await ask(api, 'Where do I drop it?', { sessionId: 'follow' });
    // "it" stands for the widget, the earlier question's object, not for returning one.
    expect(second.thought).toMatch(
      /read as: "Where do I drop it\?" \(with "widget"\), leaning on turn 1 \("How do I return a widget\?"\)/,
    );
    expect(second.response).toMatch(/post office/);
    expect(second.response).not.toMatch(/^Rotterdam/);
  });

  it('answers greetings from the dialogue layer, without sources', async () => {
    const { api } = await faqChat();
    const body = await ask(api, 'hello');
    expect(body.sources).toEqual([]);
    expect(body.thought).toMatch(/^small talk \(greeting/);
    expect(body.response).toMatch(/^Hello!/);
  });

  it('learns a hard-wrapped paragraph as one text: its sentences, not its lines', () => {
    const model = createModel({ order: 3 });
    const learned = model.addText('The quick fox jumps over the\nlazy dog. Then it sleeps\nall day long.');
    expect(learned.lines).toBe(2);
    const index = new PassageIndex();
    index.addChunk(1, 'The quick fox jumps over the\nlazy dog. Then it sleeps\nall day long.');
    expect(index.size).toBe(1);
    expect(index.text(0)).toBe('The quick fox jumps over the lazy dog. Then it sleeps all day long.');
  });

  it('carries the passage index in the snapshot, so a cold instance answers the same', async () => {
    const store = createEmbeddedStore();
    const writer = createModelKeeper(store, { order: 3, snapshotEvery: 1 });
    await writer.train(FAQ);
    await writer.idle();
    const cold = createModelKeeper(store, { order: 3, snapshotEvery: 1 });
    const { passages } = await cold.knowledge();
    expect(passages.size).toBe(3);
    expect(passages.passage(2)).toMatchObject({ chunk: 1, line: 8, kind: 'paragraph' });
  });
});

describe('the starter text', () => {
  it('is trained once into an empty store, so a fresh install answers questions about itself', async () => {
    const services = embeddedServices({ STARTER_TEXT: 'on' });
    const api = endpoint(chatHandlers(() => services));
    const body = await ask(api, 'What is apex mode?');
    expect(body.response.toLowerCase()).toContain('apex');
    expect(body.sources.length).toBeGreaterThan(0);
    expect((await services.model.stats()).chunks).toBe(1);
    // The starter guide is the document starter-guide: a reset brings it back.
    await services.model.reset();
    await services.model.knowledge();
    expect((await services.model.stats()).chunks).toBe(1);
  });

  it('is not trained when STARTER_TEXT=off', async () => {
    const services = embeddedServices({ STARTER_TEXT: 'off' });
    const body = await ask(endpoint(chatHandlers(() => services)), 'What is apex mode?');
    expect(body.response).toMatch(/^I don't know anything yet/);
  });
});
