import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { embeddedServices, postJson } from '../support/services.js';

/** Names in relations, places and a subject that is not the answer, a sentence a line. */
const TEXT = [
  'Orpah kissed her mother in law and went back to her people.',
  'Then Naomi her mother in law said unto Ruth, rest here.',
  'Ruth gleaned in the field of Boaz until the evening.',
  'The ships sailed through the Red sea and came to Ophir.',
  'Hiram sent his servants to Ophir with the ships.',
  'Solomon built the temple, and the temple stood in Jerusalem.',
  'The caravan travelled from Tadmor to Jerusalem with spices.',
  'In those days Jehoash king of Zarim hid the silver of the temple in a cave.',
  'Then Ahaz king of Tyre saw a sign in the heavens.',
].join('\n');

async function ask(message: string) {
  const services = embeddedServices({}, { random: () => 0.5 });
  await services.model.train(TEXT);
  const api = endpoint(chatHandlers(() => services));
  const response = await api.fetch(postJson('http://localhost/api/chat', { message, raw: true }));
  return (await response.json()) as { response: string; thought: string };
}

describe('the short answer put first', () => {
  it('is the one the text puts in the relation the question names, not the subject of the sentence', async () => {
    const body = await ask("Who was Ruth's mother in law?");
    expect(body.response).toMatch(/^Naomi\./);
  });

  it('is of the kind asked: a who-question never leads with a place', async () => {
    const body = await ask('Who sailed through the Red sea to Ophir?');
    expect(body.response).not.toMatch(/^(?:Red|Ophir)\./);
  });

  it('is a place for a where-question', async () => {
    const body = await ask('Where did the temple stand?');
    expect(body.response).toMatch(/^Jerusalem\./);
  });

  it('for "which X", is phrased as the text names it: "The Red sea", but a name in apposition alone', async () => {
    expect((await ask('Which sea did the ships sail through to Ophir?')).response).toMatch(/^The Red sea\./);
    const king = await ask('Which king of Zarim hid the silver?');
    expect(king.response).toMatch(/^Jehoash\./);
  });

  it('for "which X of Y", is never a name the text makes X of another place', async () => {
    const body = await ask('Which king of Zarim saw a sign in the heavens?');
    expect(body.response).not.toMatch(/^(?:The )?Ahaz\b/);
    expect(body.response).toContain('Ahaz king of Tyre');
  });

  it('is absent when nothing in the text stands in the relation: the cited sentence alone', async () => {
    const body = await ask("Who was Boaz's brother?");
    expect(body.thought).not.toContain('answer:');
    expect(body.response).not.toMatch(/^\p{Lu}\p{Ll}+\.\s/u);
  });
});
