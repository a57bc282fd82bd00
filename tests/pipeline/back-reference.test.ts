import { describe, expect, it } from 'vitest';
import { chatHandlers } from '../../lib/chat/handlers.js';
import { endpoint } from '../../lib/http/index.js';
import { embeddedServices, postJson } from '../support/services.js';

/**
 * An invented chronicle, a sentence a line as a verse text is written: the line that answers
 * "which miller ..." speaks of "the miller", who was named lines before.
 */
const CHRONICLE = [
  'In the autumn the rains came early upon the valley of Orle.',
  'Corvan the miller built a new wheel beside the river.',
  'Corvan, whiles he worked the stones, sent his sons to the market of Hesk.',
  'Then the people carried their sacks of barley to Corvan along the river road.',
  'They sang songs of the harvest and of the long winter to come.',
  'In the same night a flood rose and broke the dam above the mill, and the miller saved the grain of the whole valley.',
  'Then the elders of Orle gave thanks, and the villages feasted for seven days.',
  'Tamsin the weaver made cloaks for the children of the valley.',
  'The shepherds of Hesk drove their flocks up into the hills before the snow.',
  'And the winter was hard, but no man of the valley went hungry.',
].join('\n');

/** Variant A's chat, trained on one text document. */
async function chatOn(name: string, text: string) {
  const services = embeddedServices({}, { random: () => 0.5 });
  await services.model.train({ format: 'text', name, text });
  const api = endpoint(chatHandlers(() => services));
  return async (message: string) =>
    (await (await api.fetch(postJson('http://localhost/api/chat', { message, raw: true }))).json()) as {
      response: string;
    };
}

describe('a which-question answered by a line that says "the X"', () => {
  it('takes the name bound to X in the lines before, and quotes that line too', async () => {
    const ask = await chatOn('chronicle.txt', CHRONICLE);
    const body = await ask('Which miller saved the grain when the flood broke the dam?');
    expect(body.response).toMatch(/^Corvan\. /);
    // The line that binds the name is quoted before the answering line, the gap marked.
    expect(body.response).toMatch(/Corvan.*… .*the miller saved the grain/s);
  });
});
